package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
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

// StartupGrace is added to the hello's deadline: its reply also waits for
// the process to start (an interpreter, its imports), which a loaded machine
// or a large library can stretch to seconds.
const StartupGrace = 30 * time.Second

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

	cmd    *exec.Cmd
	stdin  *os.File // blocking: one write(2) per message
	stdout *os.File // blocking: a read(2) waits in the kernel, not in Go's poller
	out    *bufio.Reader
	stderr tail
	// maxReply bounds one reply line (replyLimit), so that a client that
	// writes without end fails the run instead of exhausting memory.
	maxReply int
	// timer enforces the per-message deadline: armed before a message is
	// written and stopped once its reply is read; when it fires it sets
	// timedOut and kills the process group, which ends the blocked write
	// or read. (A read deadline on a pollable pipe cost a poller round and
	// a clock read per message: docs/results.md, "Issue 27".)
	timer    *time.Timer
	timedOut atomic.Bool
	done     chan struct{} // closed when cmd.Wait returned
	pid      int           // the last process started (tests)
	cpu      time.Duration // the last process's user + system CPU time, once it exited (benchmarks)
	waitErr  error

	seq int // the number of the next message (hello is 0)
	// msg is the events message being built, in one buffer reused for the
	// whole run: its header goes in with the first event (seq and now do
	// not change before the flush), the events follow comma-separated.
	msg     []byte
	queued  int
	headSeq int
	headNow sim.Time
	// the task ends since the last other event, sent as one task_ends
	// event (one array per field: the client decodes a few arrays of
	// numbers instead of an object per task end)
	endTask []sim.TaskID
	endObs  []sim.Time
	failed  bool
	dec     replyDecoder
	classOf []int // node → estimate class
	classes []int // class → a node of it
	// scratch of appendLocal, kept across arrivals
	perNode, touched, rowStart, flat []int32
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
	p.seq, p.msg, p.queued, p.failed = 0, p.msg[:0], 0, false
	p.endTask, p.endObs = p.endTask[:0], p.endObs[:0]
	p.classOf, p.classes = estimateClasses(s.Cluster())
	p.maxReply = replyLimit(s.NumTasks(), len(s.Cluster().Nodes))
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
	inR, inW, err := blockingPipe()
	if err != nil {
		return err
	}
	outR, outW, err := blockingPipe()
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
	p.out = bufio.NewReaderSize(outR, readBuffer)
	p.timedOut.Store(false)
	pgid := cmd.Process.Pid // the func must not read p.cmd, which Close clears
	p.timer = time.AfterFunc(time.Hour, func() {
		p.timedOut.Store(true)
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	})
	p.timer.Stop()
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

// readBuffer is the reply reader's buffer: a reply of thousands of
// launches is still read in one read(2).
const readBuffer = 1 << 20

// blockingPipe is os.Pipe with blocking ends: os.NewFile leaves a
// blocking descriptor out of Go's poller, so each read or write is one
// system call.
func blockingPipe() (r, w *os.File, err error) {
	var fd [2]int
	if err := syscall.Pipe2(fd[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %v", err)
	}
	return os.NewFile(uintptr(fd[0]), "|0"), os.NewFile(uintptr(fd[1]), "|1"), nil
}

// JobArrival queues an arrival with the job's tasks, their block replicas
// and their estimates.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	if p.failed {
		return
	}
	p.closeEnds(s)
	p.beginEvent(s)
	var err error
	if p.msg, err = p.appendArrival(p.msg, s, j); err != nil {
		p.fail(s, p.describe(fmt.Sprintf("message %d (events at %d ms)", p.seq, s.Now()), fmt.Errorf("arrival of job %d: %v", j, err)))
	}
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
func (p *Policy) closeEnds(s *sim.Sim) {
	if len(p.endTask) == 0 {
		return
	}
	p.beginEvent(s)
	b := append(p.msg, `{"type":"task_ends","tasks":[`...)
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
	p.endTask, p.endObs = p.endTask[:0], p.endObs[:0]
}

// Timer queues a timer.
func (p *Policy) Timer(s *sim.Sim, tag int64) {
	if p.failed {
		return
	}
	p.closeEnds(s)
	p.beginEvent(s)
	b := append(p.msg, `{"type":"timer","tag":`...)
	b = strconv.AppendInt(b, tag, 10)
	p.msg = append(b, '}')
}

// Offer sends the queued events and the offer, and applies the reply's
// actions before the next offer.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	if p.failed {
		return
	}
	p.closeEnds(s)
	p.beginEvent(s)
	p.appendOffers([]sim.NodeOffer{{Node: x, Free: free}})
	p.flush(s)
}

// EndInstant sends the events that no offer carried.
func (p *Policy) EndInstant(s *sim.Sim) {
	if p.failed || p.queued == 0 && len(p.endTask) == 0 {
		return
	}
	p.closeEnds(s)
	p.flush(s)
}

// beginEvent starts the next event of the message: the message's header
// before the first, a comma before the others.
func (p *Policy) beginEvent(s *sim.Sim) {
	if p.queued > 0 {
		p.msg = append(p.msg, ',')
		p.queued++
		return
	}
	now := s.Now()
	b := append(p.msg[:0], `{"type":"events","seq":`...)
	b = strconv.AppendInt(b, int64(p.seq), 10)
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, int64(now), 10)
	p.msg = append(b, `,"events":[`...)
	p.headSeq, p.headNow = p.seq, now
	p.queued = 1
}

// flush sends one events message and applies its reply.
func (p *Policy) flush(s *sim.Sim) {
	if p.queued == 0 {
		p.beginEvent(s) // an offer round with no offer left (OfferBatch)
		p.queued = 0
	}
	if p.headSeq != p.seq || p.headNow != s.Now() {
		// the engine flushes every instant before the next one begins
		panic(fmt.Sprintf("external: message %d begun at %d ms (seq %d) but sent at %d ms", p.seq, p.headNow, p.headSeq, s.Now()))
	}
	p.msg = append(p.msg, "]}"...)
	p.queued = 0
	if err := p.exchange(s, p.msg, "events"); err != nil {
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
	deadline := p.opt.Timeout
	if seq == 0 {
		deadline += StartupGrace
	}
	p.timer.Reset(deadline)
	// the newline goes in the same buffer, so the message is one write(2)
	_, err := p.stdin.Write(append(msg, '\n'))
	var line []byte
	if err != nil {
		err = fmt.Errorf("cannot send: %v%s", err, p.exitStatus())
	} else {
		line, err = p.readLine()
	}
	if fired := !p.timer.Stop(); fired || p.timedOut.Load() {
		return p.describe(where(), fmt.Errorf("no reply within %v (--policy-timeout)", deadline))
	}
	if err != nil {
		return p.describe(where(), err)
	}
	if p.opt.Record != nil {
		p.opt.Record(false, line)
	}
	actions, ok := p.dec.decode(line)
	if !ok {
		// not a reply the fast decoder is sure of: encoding/json decides,
		// and words the error
		var r reply
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			if !json.Valid(line) {
				return p.describe(where(), fmt.Errorf("reply is not protocol JSON: %s", quote(line)))
			}
			return p.describe(where(), fmt.Errorf("bad reply %s: %v", quote(line), err))
		}
		actions = r.acts()
	}
	for i, a := range actions {
		if err := p.apply(s, a); err != nil {
			return p.describe(where(), fmt.Errorf("action %d: %v", i, err))
		}
	}
	return nil
}

// readLine reads one reply line (exchange's timer bounds the wait).
func (p *Policy) readLine() ([]byte, error) {
	line, err := p.out.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// a reply longer than the buffer: gather it, up to the limit
		long := bytes.Clone(line)
		for err == bufio.ErrBufferFull {
			if len(long) > p.maxReply {
				return nil, fmt.Errorf("a reply line longer than %d bytes (no protocol reply to this workload is that long)", p.maxReply)
			}
			line, err = p.out.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	switch {
	case err == io.EOF:
		return nil, fmt.Errorf("the policy closed its stdout%s", p.exitStatus())
	case err != nil:
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

// replyLimit is the longest reply line accepted on a workload of tasks
// tasks and nodes nodes: 16 MiB, plus 256 bytes per task and node — room
// for every task to be launched, suspended, resumed or killed in one reply
// (an action is under 60 bytes) with wide margins.
func replyLimit(tasks, nodes int) int {
	return 16<<20 + 256*(tasks+nodes)
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
func (p *Policy) apply(s *sim.Sim, a act) error {
	need := func(bit uint8, field string) error {
		if a.has&bit == 0 {
			return fmt.Errorf("%q needs %q", a.typ, field)
		}
		return nil
	}
	var err error
	switch a.typ {
	case "launch":
		if err = need(hasTask, "task"); err == nil {
			if err = need(hasNode, "node"); err == nil {
				err = s.Launch(sim.TaskID(a.task), int(a.node))
			}
		}
	case "kill":
		if err = need(hasTask, "task"); err == nil {
			err = s.Kill(sim.TaskID(a.task))
		}
	case "suspend":
		if err = need(hasTask, "task"); err == nil {
			err = s.Suspend(sim.TaskID(a.task))
		}
	case "resume":
		if err = need(hasTask, "task"); err == nil {
			err = s.Resume(sim.TaskID(a.task))
		}
	case "timer":
		if err = need(hasAt, "at"); err == nil {
			err = s.SetTimer(sim.Time(a.at), a.tag)
		}
	case "wake":
		s.Wake()
	default:
		return fmt.Errorf("unknown action %q (launch, kill, suspend, resume, timer, wake)", a.typ)
	}
	if err != nil {
		return fmt.Errorf("%s refused: %v", a.typ, err)
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
		p.timer.Stop()
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
	p.stdin.WriteString(end + "\n") // a client that already left is not an error
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
	// a stray line after the end message is output that is not protocol;
	// it is read without blocking (the process has exited, but a child
	// that left its group might hold the pipe open)
	p.kill()
	_ = syscall.SetNonblock(int(p.stdout.Fd()), true)
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
	p.closeEnds(s)
	if len(offers) > 0 {
		p.beginEvent(s)
		p.appendOffers(offers)
	}
	p.flush(s)
}

// appendOffers appends the offers of a message as one event, one array per
// field.
func (p *Policy) appendOffers(offers []sim.NodeOffer) {
	b := append(p.msg, `{"type":"offers","nodes":[`...)
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
}
