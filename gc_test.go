package elem

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestGCStopTheWorld checks that a goroutine looping over huge kernel calls
// does not hold up the garbage collector: an assembly function cannot be
// preempted, so the kernel entry runs a big call as pieces of at most 256
// KiB of output, between which the goroutine stops when asked. Without the
// pieces, one Add of 64M float32s (some 40 ms) held every stop-the-world
// pause of the collector for as long: the wait was spread evenly over the
// call, its median half a call. The bound on the median wait is an eighth
// of one call's time measured in the same run, or twice the median wait
// beside the plain Go loop (which the runtime preempts anywhere) if that is
// larger, so that a loaded machine, which slows the calls and the scheduler
// alike, does not decide the outcome; the pieces keep the wait at tens of
// microseconds. The median, not the tail: 40 collections make the 99th
// percentile their slowest, which an unlucky descheduling decides.
func TestGCStopTheWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 768 MiB and runs for seconds")
	}
	const n = 64 << 20
	a, b, dst := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 1
	}
	call := time.Duration(math.MaxInt64)
	for range 3 {
		start := time.Now()
		Add(dst, a, b)
		call = min(call, time.Since(start))
	}
	p50, p99 := stopWait(func() { Add(dst, a, b) })
	p50Loop, p99Loop := stopWait(func() {
		for i := range dst {
			dst[i] = a[i] + b[i]
		}
	})
	t.Logf("GC stop-the-world wait while looping over Add of %d float32s (%v a call): median %v, p99 %v; over the plain loop: median %v, p99 %v",
		n, call, p50, p99, p50Loop, p99Loop)
	require.Less(t, p50, max(call/8, 2*p50Loop))
}

// stopWait returns the median and the 99th percentile of the collector's
// stop-the-world wait while a goroutine runs work over and over.
func stopWait(work func()) (p50, p99 time.Duration) {
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			work()
		}
	}()
	time.Sleep(50 * time.Millisecond) // the loop is under way
	before := stoppingPauses()
	for range 40 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	after := stoppingPauses()
	stop.Store(true)
	<-done
	return percentile(before, after, 0.5), percentile(before, after, 0.99)
}

// stoppingPauses reads the histogram of the time the runtime waited for
// goroutines to stop for the collector.
func stoppingPauses() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/pauses/stopping/gc:seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64Histogram()
}

// percentile is the q quantile of the waits recorded between two readings,
// as the upper bound of the bucket it falls in.
func percentile(before, after *metrics.Float64Histogram, q float64) time.Duration {
	var total uint64
	counts := make([]uint64, len(after.Counts))
	for i := range counts {
		counts[i] = after.Counts[i] - before.Counts[i]
		total += counts[i]
	}
	want := uint64(q * float64(total))
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen > want {
			return time.Duration(after.Buckets[i+1] * float64(time.Second))
		}
	}
	return 0
}
