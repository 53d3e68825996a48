package main

import (
	"fmt"
	"slices"
	"time"
)

// noisyLimit is the spread above which a measurement is marked noisy: beyond
// it the median of a handful of timings says little, and on this kind of VM
// a neighbour or a frequency change is the likelier cause than the code.
const noisyLimit = 0.10

// timing is one measurement: the time of one call in ns, as the median,
// fastest and slowest of repeated timings.
type timing struct{ median, min, max float64 }

// summarize is the timing of a set of per-call times (at least one).
func summarize(times []float64) timing {
	s := slices.Sorted(slices.Values(times))
	n := len(s)
	return timing{median: (s[(n-1)/2] + s[n/2]) / 2, min: s[0], max: s[n-1]}
}

// spread is the range of the timings as a fraction of their median.
func (t timing) spread() float64 { return (t.max - t.min) / t.median }

// noisy reports whether the spread is above noisyLimit.
func (t timing) noisy() bool { return t.spread() > noisyLimit }

// noisyMark is what follows a noisy figure in the table.
const noisyMark = "!"

// spreadCell writes the spread as a whole percentage, marked when noisy.
func spreadCell(t timing) string { return marked(fmt.Sprintf("%.0f%%", 100*t.spread()), t.noisy()) }

// marked is s followed by the noisy mark, or by a space where there is none,
// so that figures line up.
func marked(s string, noisy bool) string {
	if noisy {
		return s + noisyMark
	}
	return s + " "
}

// measure times f: it finds how many calls take about minTime, then times
// that many calls reps times and summarizes the time per call.
func measure(f func(), minTime time.Duration, reps int) timing {
	iters := calibrate(f, minTime)
	times := make([]float64, reps)
	for i := range times {
		times[i] = timeCalls(f, iters)
	}
	return summarize(times)
}

// calibrate returns how many calls of f take about minTime.
func calibrate(f func(), minTime time.Duration) int {
	iters := 1
	for {
		start := time.Now()
		for range iters {
			f()
		}
		if d := time.Since(start); d >= minTime/4 || iters >= 1<<30 {
			return max(1, int(float64(iters)*float64(minTime)/float64(max(d, time.Microsecond))))
		}
		iters *= 4
	}
}

// timeCalls returns the time of one call of f in ns, over iters calls.
func timeCalls(f func(), iters int) float64 {
	start := time.Now()
	for range iters {
		f()
	}
	return float64(time.Since(start).Nanoseconds()) / float64(iters)
}
