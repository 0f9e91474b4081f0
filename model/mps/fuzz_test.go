package mps

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/mrbound/mrbound/model/internal/modeltest"
)

// FuzzRead checks that no input makes Read panic, and that whatever Read
// accepts is a valid model that survives a write → read round trip unchanged.
func FuzzRead(f *testing.F) {
	f.Add([]byte("NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\nRHS\n R c 1\nBOUNDS\n UP B x 4\nENDATA\n"))
	f.Add([]byte("NAME\nOBJSENSE MAX\nROWS\n N o\n E e\n G g\nCOLUMNS\n M 'MARKER' 'INTORG'\n i o 1 e 1\n M 'MARKER' 'INTEND'\n y g -1\nRHS\n o 3\nRANGES\n R e -2 g 4\nBOUNDS\n BV B i\n MI y\nENDATA\n"))
	f.Add([]byte(fixed("N", "COST") + "ROWS\n" + fixed("L", "LIM 1") + "COLUMNS\n" + fixed("", "X ONE", "LIM 1", "1.0") + "ENDATA\n"))
	f.Add([]byte("NAME\nROWS\n N o\n L a\n G b\nCOLUMNS\n x o 1 a 2\n y b 1\nRHS\n a 1\nRANGES\n a 3\nBOUNDS\n FR x\n UP y -1\nENDATA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz.mps")
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read returned an invalid model: %v", err)
		}
		var b bytes.Buffer
		if err := Write(&b, m); err != nil {
			t.Fatalf("Write: %v", err)
		}
		m2, err := Read(bytes.NewReader(b.Bytes()), "again.mps")
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, b.String())
		}
		if d := modeltest.Diff(m, m2); d != "" {
			t.Fatalf("round trip differs: %s\n%s", d, b.String())
		}
	})
}

// TestMutatedInputs is a seeded, always-run cousin of FuzzRead: random byte
// edits of small valid files must never panic, and what is accepted must
// round-trip.
func TestMutatedInputs(t *testing.T) {
	seeds := []string{
		"NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\nRHS\n R c 1\nBOUNDS\n UP B x 4\nENDATA\n",
		"NAME\nOBJSENSE MAX\nROWS\n N o\n E e\n G g\nCOLUMNS\n M 'MARKER' 'INTORG'\n i o 1 e 1\n M 'MARKER' 'INTEND'\n y g -1\nRHS\n o 3\nRANGES\n R e -2 g 4\nBOUNDS\n BV B i\n MI y\nENDATA\n",
	}
	alphabet := []byte(" \n\t.0123456789eE+-NLGEMXUPLOFRBVIAinf'")
	rng := rand.New(rand.NewSource(1))
	accepted := 0
	for it := 0; it < 20000; it++ {
		d := []byte(seeds[rng.Intn(len(seeds))])
		for k := rng.Intn(2) + 1; k > 0; k-- {
			i := rng.Intn(len(d))
			switch rng.Intn(3) {
			case 0:
				d[i] = alphabet[rng.Intn(len(alphabet))]
			case 1:
				d = append(d[:i], d[i+1:]...)
			default:
				d = append(d[:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, d[i:]...)...)
			}
		}
		m, err := Read(bytes.NewReader(d), "mutated.mps")
		if err != nil {
			continue
		}
		accepted++
		var b bytes.Buffer
		if err := Write(&b, m); err != nil {
			t.Fatalf("Write: %v\ninput %q", err, d)
		}
		if m2, err := Read(&b, "again.mps"); err != nil || modeltest.Diff(m, m2) != "" {
			t.Fatalf("round trip: %v %s\ninput %q", err, modeltest.Diff(m, m2), d)
		}
	}
	if accepted < 500 {
		t.Errorf("only %d of 20000 mutated inputs were accepted; the test exercises too little", accepted)
	}
}
