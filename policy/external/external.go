package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

// ProtocolVersion is the version the hello message announces; a client
// refuses a version it does not know.
const ProtocolVersion = 2

// DefaultTimeout is the per-message deadline: a reply that has not come
// within it fails the run (a hung policy).
const DefaultTimeout = 10 * time.Second

// Prefix marks an external policy name: "exec:COMMAND ARGS…".
const Prefix = "exec:"

// stderrTail is how much of the process's stderr is kept to quote its last
// line when it fails.
const stderrTail = 4096

// Options of an external policy.
type Options struct {
	// Timeout is the per-message deadline (0 = DefaultTimeout).
	Timeout time.Duration
	// Record, when set, sees every protocol line, sent (toPolicy) or
	// received, without its newline (tests validate them against the schema).
	Record func(toPolicy bool, line []byte)
}

// Policy runs a scheduler in another process over the protocol of
// docs/protocol.md. It implements sim.Policy, sim.InstantEnder and
// sim.Closer.
type Policy struct {
	command string
	words   []string
	opt     Options

	cmd     *exec.Cmd
	stdin   *os.File
	in      *bufio.Writer
	stdout  *os.File
	out     *bufio.Reader
	stderr  tail
	done    chan struct{} // closed when cmd.Wait returned
	pid     int           // the last process started (tests)
	cpu     time.Duration // the last process's user + system CPU time, once it exited (benchmarks)
	waitErr error

	seq    int    // the number of the next message (hello is 0)
	queue  []byte // queued events, comma-separated JSON objects
	queued int
	// the task ends since the last other event, sent as one task_ends
	// event (one array per field: the client decodes a few arrays of
	// numbers instead of an object per task end)
	endTask []sim.TaskID
	endObs  []sim.Time
	failed  bool
	msg     []byte
	classOf []int // node → estimate class
	classes []int // class → a node of it
}

// New prepares the policy for command (the words after "exec:"); the process
// starts in Init, so that New can also just validate a name.
func New(command string, opt Options) (*Policy, error) {
	words, err := SplitWords(command)
	if err != nil {
		return nil, badinput.Errorf("--policy %s%s: %v", Prefix, command, err)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	return &Policy{command: command, words: words, opt: opt}, nil
}

// Name is "exec:" and the command.
func (p *Policy) Name() string { return Prefix + p.command }

// Init starts the process and exchanges the hello.
func (p *Policy) Init(s *sim.Sim) error {
	p.seq, p.queue, p.queued, p.failed = 0, p.queue[:0], 0, false
	p.endTask, p.endObs = p.endTask[:0], p.endObs[:0]
	p.classOf, p.classes = estimateClasses(s.Cluster())
	if err := p.start(); err != nil {
		return err
	}
	hello, err := json.Marshal(newHello(s, p.classOf, p.classes))
	if err != nil {
		return err
	}
	if err := p.exchange(s, hello, "hello"); err != nil {
		p.failed = true
		return err
	}
	return nil
}

func (p *Policy) start() error {
	path, err := exec.LookPath(p.words[0])
	if err != nil {
		return badinput.Errorf("--policy %s%s: %v", Prefix, p.command, err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	p.stderr = tail{}
	cmd := exec.Command(path, p.words[1:]...)
	cmd.Args[0] = p.words[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &p.stderr
	// its own process group, so that a kill reaches the children it forked
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return badinput.Errorf("--policy %s%s: %v", Prefix, p.command, err)
	}
	p.cmd, p.stdin, p.stdout, p.pid = cmd, inW, outR, cmd.Process.Pid
	p.in = bufio.NewWriterSize(inW, 1<<16)
	p.out = bufio.NewReaderSize(outR, 1<<16)
	p.done = make(chan struct{})
	go func() {
		p.waitErr = cmd.Wait()
		if cmd.ProcessState != nil {
			p.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		close(p.done)
	}()
	return nil
}

// JobArrival queues an arrival with the job's tasks, their block replicas
// and their estimates.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	if p.failed {
		return
	}
	b, err := json.Marshal(arrivalEvent{Type: "arrival", Job: newJob(s, j, p.classes)})
	if err != nil {
		p.fail(s, fmt.Errorf("arrival of job %d: %v", j, err))
		return
	}
	p.closeEnds()
	p.enqueue(b)
}

// TaskEnd queues a task end with its observed duration; consecutive task
// ends go in one task_ends event.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, observed sim.Time) {
	if p.failed {
		return
	}
	p.endTask = append(p.endTask, t)
	p.endObs = append(p.endObs, observed)
}

// closeEnds queues the task ends collected so far as one task_ends event,
// before an event of another kind.
func (p *Policy) closeEnds() {
	if len(p.endTask) == 0 {
		return
	}
	b := append(p.msg[:0], `{"type":"task_ends","tasks":[`...)
	for i, t := range p.endTask {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t), 10)
	}
	b = append(b, `],"observed":[`...)
	for i, o := range p.endObs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(o), 10)
	}
	p.msg = append(b, "]}"...)
	p.enqueue(p.msg)
	p.endTask, p.endObs = p.endTask[:0], p.endObs[:0]
}

// Timer queues a timer.
func (p *Policy) Timer(s *sim.Sim, tag int64) {
	if p.failed {
		return
	}
	p.closeEnds()
	b := append(p.msg[:0], `{"type":"timer","tag":`...)
	b = strconv.AppendInt(b, tag, 10)
	p.msg = append(b, '}')
	p.enqueue(p.msg)
}

// Offer sends the queued events and the offer, and applies the reply's
// actions before the next offer.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	if p.failed {
		return
	}
	p.closeEnds()
	p.enqueue(p.offersEvent([]sim.NodeOffer{{Node: x, Free: free}}))
	p.flush(s)
}

// EndInstant sends the events that no offer carried.
func (p *Policy) EndInstant(s *sim.Sim) {
	if p.failed || p.queued == 0 && len(p.endTask) == 0 {
		return
	}
	p.closeEnds()
	p.flush(s)
}

func (p *Policy) enqueue(ev []byte) {
	if p.queued > 0 {
		p.queue = append(p.queue, ',')
	}
	p.queue = append(p.queue, ev...)
	p.queued++
}

// flush sends one events message and applies its reply.
func (p *Policy) flush(s *sim.Sim) {
	b := append(p.msg[:0], `{"type":"events","seq":`...)
	b = strconv.AppendInt(b, int64(p.seq), 10)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, int64(s.Now()), 10)
	b = append(b, `,"events":[`...)
	b = append(b, p.queue...)
	b = append(b, "]}"...)
	p.msg = b
	p.queue, p.queued = p.queue[:0], 0
	if err := p.exchange(s, b, "events"); err != nil {
		p.fail(s, err)
	}
}

// exchange sends one message, reads its reply and applies the actions.
func (p *Policy) exchange(s *sim.Sim, msg []byte, what string) error {
	seq, now := p.seq, s.Now()
	p.seq++
	// the place is formatted only for an error: this runs once per message
	where := func() string { return fmt.Sprintf("message %d (%s at %d ms)", seq, what, now) }
	if p.opt.Record != nil {
		p.opt.Record(true, msg)
	}
	p.in.Write(msg)
	p.in.WriteByte('\n')
	if err := p.in.Flush(); err != nil {
		return p.describe(where(), fmt.Errorf("cannot send: %v", err))
	}
	line, err := p.readLine()
	if err != nil {
		return p.describe(where(), err)
	}
	if p.opt.Record != nil {
		p.opt.Record(false, line)
	}
	var r reply
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		if !json.Valid(line) {
			return p.describe(where(), fmt.Errorf("reply is not protocol JSON: %s", quote(line)))
		}
		return p.describe(where(), fmt.Errorf("bad reply %s: %v", quote(line), err))
	}
	for i, a := range r.Actions {
		if err := p.apply(s, a); err != nil {
			return p.describe(where(), fmt.Errorf("action %d: %v", i, err))
		}
	}
	return nil
}

// readLine reads one reply line within the deadline.
func (p *Policy) readLine() ([]byte, error) {
	p.stdout.SetReadDeadline(time.Now().Add(p.opt.Timeout))
	line, err := p.out.ReadBytes('\n')
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("no reply within %v (--policy-timeout)", p.opt.Timeout)
	case err == io.EOF:
		return nil, fmt.Errorf("the policy closed its stdout%s", p.exitStatus())
	case err != nil:
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

// exitStatus waits briefly for the process to end and says how it did.
func (p *Policy) exitStatus() string {
	select {
	case <-p.done:
	case <-time.After(time.Second):
		return " (still running)"
	}
	msg := " (exit status 0)"
	if p.waitErr != nil {
		msg = " (" + p.waitErr.Error() + ")"
	}
	if l := p.stderr.lastLine(); l != "" {
		msg += "; its last stderr line: " + strconv.Quote(l)
	}
	return msg
}

// apply carries out one action.
func (p *Policy) apply(s *sim.Sim, a action) error {
	need := func(ok bool, field string) error {
		if !ok {
			return fmt.Errorf("%q needs %q", a.Type, field)
		}
		return nil
	}
	var err error
	switch a.Type {
	case "launch":
		if err = need(a.Task != nil, "task"); err == nil {
			if err = need(a.Node != nil, "node"); err == nil {
				err = s.Launch(sim.TaskID(*a.Task), *a.Node)
			}
		}
	case "kill":
		if err = need(a.Task != nil, "task"); err == nil {
			err = s.Kill(sim.TaskID(*a.Task))
		}
	case "suspend":
		if err = need(a.Task != nil, "task"); err == nil {
			err = s.Suspend(sim.TaskID(*a.Task))
		}
	case "resume":
		if err = need(a.Task != nil, "task"); err == nil {
			err = s.Resume(sim.TaskID(*a.Task))
		}
	case "timer":
		if err = need(a.At != nil, "at"); err == nil {
			err = s.SetTimer(sim.Time(*a.At), a.Tag)
		}
	case "wake":
		s.Wake()
	default:
		return fmt.Errorf("unknown action %q (launch, kill, suspend, resume, timer, wake)", a.Type)
	}
	if err != nil {
		return fmt.Errorf("%s refused: %v", a.Type, err)
	}
	return nil
}

func (p *Policy) describe(where string, err error) error {
	return badinput.Errorf("policy %s%s: %s: %v", Prefix, p.command, where, err)
}

// fail stops the run: the process group is killed at once, so that a
// misbehaving client leaves nothing behind.
func (p *Policy) fail(s *sim.Sim, err error) {
	p.failed = true
	p.kill()
	s.Abort(err)
}

func (p *Policy) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Close sends the end message, closes the process's stdin and waits for it
// to exit (at most the deadline); whatever happens the process group is
// killed and reaped.
func (p *Policy) Close(s *sim.Sim) error {
	if p.cmd == nil {
		return nil
	}
	defer func() {
		p.kill() // children it left behind
		<-p.done
		p.stdout.Close()
		p.cmd = nil
	}()
	if p.failed {
		p.kill()
		p.stdin.Close()
		return nil
	}
	end := fmt.Sprintf(`{"type":"end","seq":%d,"now":%d}`, p.seq, s.Now())
	if p.opt.Record != nil {
		p.opt.Record(true, []byte(end))
	}
	p.in.WriteString(end + "\n")
	p.in.Flush() // a client that already left is not an error
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(p.opt.Timeout):
		p.kill()
		<-p.done
		return p.describe(fmt.Sprintf("message %d (end)", p.seq), fmt.Errorf("did not exit within %v", p.opt.Timeout))
	}
	if p.waitErr != nil {
		return p.describe(fmt.Sprintf("message %d (end)", p.seq), fmt.Errorf("exited with %v%s", p.waitErr, lastLine(&p.stderr)))
	}
	// a stray line after the end message is output that is not protocol
	p.stdout.SetReadDeadline(time.Now().Add(p.opt.Timeout))
	if extra, _ := p.out.ReadBytes('\n'); len(bytes.TrimSpace(extra)) > 0 {
		return p.describe(fmt.Sprintf("message %d (end)", p.seq), fmt.Errorf("output after the end message: %s", quote(extra)))
	}
	return nil
}

func lastLine(t *tail) string {
	if l := t.lastLine(); l != "" {
		return "; its last stderr line: " + strconv.Quote(l)
	}
	return ""
}

// quote shows at most 80 bytes of a line.
func quote(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 80 {
		return strconv.Quote(string(b[:80])) + "…"
	}
	return strconv.Quote(string(b))
}

// tail keeps the last stderrTail bytes written to it.
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > stderrTail {
		t.b = append(t.b[:0], t.b[len(t.b)-stderrTail:]...)
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// OfferBatch sends the queued events and every offer of an ideal-mode offer
// pass in one message; the client serves the offers in order.
func (p *Policy) OfferBatch(s *sim.Sim, offers []sim.NodeOffer) {
	if p.failed {
		return
	}
	p.closeEnds()
	if len(offers) > 0 {
		p.enqueue(p.offersEvent(offers))
	}
	p.flush(s)
}

// offersEvent is the offers of a message as one event, one array per field.
func (p *Policy) offersEvent(offers []sim.NodeOffer) []byte {
	b := append(p.msg[:0], `{"type":"offers","nodes":[`...)
	for i, o := range offers {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(o.Node), 10)
	}
	b = append(b, `],"map":[`...)
	for i, o := range offers {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(o.Free.Map), 10)
	}
	b = append(b, `],"reduce":[`...)
	for i, o := range offers {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(o.Free.Reduce), 10)
	}
	p.msg = append(b, "]}"...)
	return p.msg
}
