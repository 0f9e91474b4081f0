package report

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload"

	_ "github.com/mrbound/mrbound/solve/native" // coshh solves its LP
)

var updateIdentity = flag.Bool("update-identity", false, "rewrite testdata/trace-identity.golden from this build")

const identityGolden = "testdata/trace-identity.golden"

// TestTraceIdentity runs every case of testdata/trace-identity.golden (a
// 400-job excerpt of the FB-2009 day on 40 and 10 nodes under seven
// policies, three of them preempting; the MRCP stream in ideal and
// heartbeat mode; the COSHH Facebook stream) and asserts that the trace,
// written by WriteTrace, hashes to the recorded SHA-256 and passes the
// checker; and that the same run streamed (Options.Sink) gives the same
// bytes through TraceWriter, the streaming checker's acceptance and the
// same metrics. The hashes were recorded with the binary of main before issue 30
// reworked the checker, the trace writer and the engine's memory: every
// decision and every byte of the trace must stay as it was (the header is
// hashed as it was then: recordedHeaderHash). A change that
// means to alter decisions regenerates them with -update-identity and says
// why.
func TestTraceIdentity(t *testing.T) {
	f, err := os.Open(identityGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var header, rows []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "#") {
			header = append(header, line)
		} else if line != "" {
			rows = append(rows, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no cases")
	}
	var updated []string
	for i, row := range rows {
		col := strings.Split(row, "\t")
		if len(col) != 5 {
			t.Fatalf("%s:%d: %d columns, want 5", identityGolden, len(header)+i+1, len(col))
		}
		hb, err1 := strconv.ParseInt(col[2], 10, 64)
		nodes, err2 := strconv.Atoi(col[3])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad heartbeat or nodes", identityGolden, len(header)+i+1)
		}
		name := fmt.Sprintf("%s/%s/H=%d/nodes=%d", col[0], col[1], hb, nodes)
		got := traceHash(t, name, col[0], col[1], sim.Time(hb), nodes)
		if *updateIdentity {
			col[4] = got
			updated = append(updated, strings.Join(col, "\t"))
		} else if got != col[4] {
			t.Errorf("%s: trace hashes to %s, recorded %s: a decision or a byte of the trace changed", name, got, col[4])
		}
	}
	if *updateIdentity {
		err := atomicfile.Write(identityGolden, func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Join(append(header, updated...), "\n")+"\n")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// traceHash simulates one case as `mrbound simulate` does with its default
// flags and returns the SHA-256 of its TSV trace; the run must verify.
func traceHash(t *testing.T, name, file, pol string, hb sim.Time, nodes int) string {
	t.Helper()
	o := workload.DefaultOptions()
	if nodes > 0 {
		o.SWIMCluster.Nodes = nodes
	}
	w, err := workload.Load(file, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p, err := policy.New(pol, policy.Params{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	opt := sim.DefaultOptions()
	opt.Heartbeat = hb
	res, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rep := New(file, w, res)
	if !rep.Verified {
		t.Errorf("%s: not verified: %s", name, rep.CheckError)
	}
	h := recordedHeaderHash{h: sha256.New()}
	if err := rep.WriteTrace(&h); err != nil {
		t.Fatal(err)
	}
	kept := h.sum(t, name)
	// The same run streamed (the path of mrbound simulate without a
	// chart): the trace writer's bytes hash the same, the streaming
	// checker accepts it, and the figures are the same.
	if p, err = policy.New(pol, policy.Params{}); err != nil {
		t.Fatal(err)
	}
	sh := recordedHeaderHash{h: sha256.New()}
	tw := NewTraceWriter(&sh)
	st := check.NewStream(w, opt)
	opt.Sink = sim.Tee(st, tw)
	sres, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatalf("%s streamed: %v", name, err)
	}
	if err := tw.Close(); err != nil {
		t.Fatalf("%s streamed: %v", name, err)
	}
	if err := st.Finish(sres); err != nil {
		t.Errorf("%s streamed: the streaming checker rejects the run: %v", name, err)
	}
	if got := sh.sum(t, name+" streamed"); got != kept {
		t.Errorf("%s streamed: the trace writer's bytes hash to %s, WriteTrace's to %s", name, got, kept)
	}
	if sres.Metrics != res.Metrics || sres.Trace != nil {
		t.Errorf("%s streamed: metrics %+v, kept %+v (trace held: %v)", name, sres.Metrics, res.Metrics, sres.Trace != nil)
	}
	return kept
}

// recordedHeader is the trace's header when the hashes were recorded,
// before its times' names gained their unit (s19ui).
const recordedHeader = "task\tjob\tkind\tindex\tnode\tlaunch\tstart\tend\tduration\toutcome\tlocal\tresumed\n"

// recordedHeaderHash hashes a trace with its header (traceHeader) read as
// recordedHeader, so that the recorded hashes still pin every byte of the
// rows.
type recordedHeaderHash struct {
	h      hash.Hash
	header []byte // the bytes of traceHeader seen so far
}

func (r *recordedHeaderHash) Write(b []byte) (int, error) {
	n := len(b)
	if need := len(traceHeader) - len(r.header); need > 0 {
		k := min(need, len(b))
		r.header = append(r.header, b[:k]...)
		b = b[k:]
		if len(r.header) == len(traceHeader) {
			r.h.Write([]byte(recordedHeader))
		}
	}
	r.h.Write(b)
	return n, nil
}

// sum is the hash, once the header was traceHeader.
func (r *recordedHeaderHash) sum(t *testing.T, name string) string {
	t.Helper()
	if string(r.header) != traceHeader {
		t.Errorf("%s: the trace starts %q, want the header %q", name, r.header, traceHeader)
	}
	return hex.EncodeToString(r.h.Sum(nil))
}
