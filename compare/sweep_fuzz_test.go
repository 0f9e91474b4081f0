package compare

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzReadSweep: a sweep table of any content is read without a panic (a
// resumed sweep reads the user's file), and what it reads is written and
// read back to the same rows, whichever header it came under.
func FuzzReadSweep(f *testing.F) {
	current := strings.Join(sweepHeader, ",") + "\n"
	f.Add(current + "mrcp-mixed,0.02,0.96,1,fifo,mean-turnaround,s,85.2,75.3375,1.13,bound,true\n")
	f.Add(current + "mrcp-mixed,0.02,0.96,1,edf,late-jobs,jobs,3,1,3,bound,false\n" + "mrcp-mixed,0.02,0.96,1,fifo,makespan,s,1")
	f.Add(strings.Join(legacySweepHeaders[0], ",") + "\nmrcp-small,0.05,0.5,2,fifo,makespan,58000,58000,1,optimal,true\n")
	f.Add(strings.Join(legacySweepHeaders[1], ",") + "\n\"a,b\",1e-3,NaN,0,x,mrcp-product,s,1,0,NaN,bound,true\n")
	f.Add(current + "a,1,1,1,p,late-jobs,s,1,1,1,bound,true\n")
	f.Fuzz(func(t *testing.T, data string) {
		recs, err := ReadSweep("t.csv", strings.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := SweepRecords.WriteAll(&buf, recs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadSweep("again.csv", &buf)
		if err != nil {
			t.Fatalf("written table not read back: %v\n%s", err, buf.String())
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records read back of %d", len(again), len(recs))
		}
		for i := range recs {
			if a, b := recs[i].fields(), again[i].fields(); !slices.Equal(a, b) {
				t.Fatalf("record %d: %q read back as %q", i, a, b)
			}
		}
	})
}
