package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// DefaultInterval is the time between two plain lines: often enough that a
// run of minutes shows life, rarely enough that an hour's log stays short.
const DefaultInterval = 10 * time.Second

// Mode is how a Reporter writes.
type Mode int

const (
	// Auto picks Bar when the writer is a terminal and Lines otherwise.
	Auto Mode = iota
	// Quiet writes nothing (--quiet).
	Quiet
	// Lines writes a plain line every Interval.
	Lines
	// Bar draws a progress bar (a spinner when the total is unknown).
	Bar
)

// Options configure a Reporter.
type Options struct {
	Mode Mode
	// Interval between plain lines; DefaultInterval when 0.
	Interval time.Duration
	// Unit names what is counted ("instances", "tasks"); "steps" when empty.
	Unit string
}

// Reporter reports one command's progress. Its methods may be called from
// several goroutines; a nil *Reporter does nothing.
type Reporter struct {
	w     io.Writer
	desc  string
	unit  string
	start time.Time

	mu          sync.Mutex
	done, total int
	bar         *progressbar.ProgressBar
	stop        chan struct{}
	stopped     sync.WaitGroup
	finished    bool
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New starts reporting desc ("compare", "simulate") with total steps (0:
// unknown) on w. Call Finish when the work ends.
func New(w io.Writer, desc string, total int, o Options) *Reporter {
	mode := o.Mode
	if mode == Auto {
		mode = Lines
		if IsTerminal(w) {
			mode = Bar
		}
	}
	if mode == Quiet || w == nil {
		return nil
	}
	r := &Reporter{w: w, desc: desc, unit: o.Unit, total: max(total, 0), start: time.Now(), stop: make(chan struct{})}
	if r.unit == "" {
		r.unit = "steps"
	}
	interval := o.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	if mode == Bar {
		n := total
		if n <= 0 {
			n = -1 // a spinner
		}
		r.bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionClearOnFinish())
		interval = time.Second / 4 // keep the spinner and the clock moving between steps
	}
	r.stopped.Add(1)
	go r.tick(interval)
	return r
}

func (r *Reporter) tick(interval time.Duration) {
	defer r.stopped.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.mu.Lock()
			if r.bar != nil {
				_ = r.bar.Set(r.done)
			} else {
				fmt.Fprintln(r.w, r.line())
			}
			r.mu.Unlock()
		}
	}
}

// line is the plain progress line (under r.mu).
func (r *Reporter) line() string {
	el := time.Since(r.start).Round(time.Second).Seconds()
	if r.total <= 0 {
		if r.done > 0 {
			return fmt.Sprintf("%s: %d %s, %.0f s elapsed", r.desc, r.done, r.unit, el)
		}
		return fmt.Sprintf("%s: running, %.0f s elapsed", r.desc, el)
	}
	return fmt.Sprintf("%s: %d/%d %s (%.0f%%), %.0f s elapsed", r.desc, r.done, r.total, r.unit, 100*float64(r.done)/float64(r.total), el)
}

// Set records that done of total steps are finished; total ≤ 0 keeps the
// total given to New.
func (r *Reporter) Set(done, total int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if total > 0 && total != r.total {
		r.total = total
		if r.bar != nil {
			r.bar.ChangeMax(total)
		}
	}
	r.done = done
	if r.bar != nil && !r.finished {
		_ = r.bar.Set(done)
	}
}

// Add records n more finished steps.
func (r *Reporter) Add(n int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	done := r.done + n
	r.mu.Unlock()
	r.Set(done, 0)
}

// Finish stops the reporter and clears the bar; it writes no final line
// (the command's own output follows). It may be called more than once.
func (r *Reporter) Finish() {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return
	}
	r.finished = true
	close(r.stop)
	r.mu.Unlock()
	r.stopped.Wait()
	if r.bar != nil {
		_ = r.bar.Clear()
	}
}
