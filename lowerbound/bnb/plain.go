package bnb

import "math"

// The reference forms of the search's hot kernels, as first written: the
// tests run Solve with Options.plain, which takes these (and replays every
// best-first node from the root), and require the Result of the fast forms,
// node for node.

// listEndPlain is listEnd by a scan of the slots per task.
func listEndPlain(avail []int64, rho int64, n int, d int64) int64 {
	m := len(avail)
	if m == 0 || n == 0 {
		return rho
	}
	var buf [16]int64
	var b []int64
	if m <= len(buf) {
		b = buf[:m]
	} else {
		b = make([]int64, m)
	}
	for i, a := range avail {
		b[i] = max(a, rho)
	}
	var end int64
	for q := 0; q < n; q++ {
		i := 0
		for x := 1; x < m; x++ {
			if b[x] < b[i] {
				i = x
			}
		}
		b[i] += d
		end = max(end, b[i])
	}
	return end
}

// fluidPlain is fluid by a scan of avail per event, with math.Min.
func fluidPlain(avail []int64, js []fluidJob, r rule) bool {
	n := len(js)
	t := math.Inf(1)
	for i := range js {
		js[i].rem, js[i].done = js[i].work, false
		t = math.Min(t, js[i].release)
	}
	missed := false
	left := n
	for left > 0 {
		speed := 0
		nextAvail := math.Inf(1)
		for _, a := range avail {
			if float64(a) <= t {
				speed++
			} else {
				nextAvail = math.Min(nextAvail, float64(a))
			}
		}
		nextRel := math.Inf(1)
		pick := -1
		for i := range js {
			if js[i].done {
				continue
			}
			if js[i].release > t {
				nextRel = math.Min(nextRel, js[i].release)
				continue
			}
			if pick < 0 || better(js, i, pick, r) {
				pick = i
			}
		}
		if pick < 0 || speed == 0 {
			t = math.Min(nextRel, nextAvail)
			continue
		}
		fin := t + js[pick].rem/float64(speed)
		step := math.Min(fin, math.Min(nextRel, nextAvail))
		if step >= fin {
			js[pick].end, js[pick].done = fin, true
			left--
			if r == edf && fin > js[pick].deadline+fluidTol {
				missed = true
			}
			t = fin
			continue
		}
		js[pick].rem -= (step - t) * float64(speed)
		t = step
	}
	return missed
}
