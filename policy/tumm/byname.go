package tumm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/sim"
)

// Names are the policy names this package serves (ByName also takes
// static:M:R for any M, R). tumm-literal is TuMM with eq 6 read as
// policies.md §2.6 writes it (ReferenceLastUpdate).
var Names = []string{"tumm", "tumm-literal", "htumm", "static:1:3", "static:2:2", "static:3:1", "static:alg1", "static:nodes"}

// ByName returns the policy called name, or an error naming the problem.
func ByName(name string) (sim.Policy, error) {
	switch name {
	case "tumm":
		return NewTuMM(TuMMOptions{}), nil
	case "tumm-literal":
		return NewTuMM(TuMMOptions{Reference: ReferenceLastUpdate}), nil
	case "htumm":
		return NewHTuMM(HTuMMOptions{}), nil
	case "static:alg1":
		return NewStaticAlg1(), nil
	case "static:nodes":
		return NewStaticNodes(), nil
	}
	if rest, ok := strings.CutPrefix(name, "static:"); ok {
		m, r, ok := strings.Cut(rest, ":")
		mi, err1 := strconv.Atoi(m)
		ri, err2 := strconv.Atoi(r)
		if !ok || err1 != nil || err2 != nil || mi < 0 || ri < 0 || mi+ri == 0 {
			return nil, fmt.Errorf("policy %q: a static split is static:M:R with non-negative integers, static:alg1 or static:nodes", name)
		}
		return NewStaticRatio(mi, ri), nil
	}
	return nil, fmt.Errorf("policy %q: not one of %s", name, strings.Join(Names, ", "))
}

// MustByName is ByName for names known to exist; it panics otherwise.
func MustByName(name string) sim.Policy {
	p, err := ByName(name)
	if err != nil {
		panic(err)
	}
	return p
}
