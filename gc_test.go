package elem

import (
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
// pause of the collector for as long. The bound here, 20 ms at the 99th
// percentile, is far above the pieces' tens of microseconds and far below
// the unsplit call.
func TestGCStopTheWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 768 MiB and runs for seconds")
	}
	const n = 64 << 20
	a, b, dst := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 1
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			Add(dst, a, b)
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

	p99 := percentile(before, after, 0.99)
	t.Logf("GC stop-the-world wait while looping over Add of %d float32s: p99 %v", n, p99)
	require.Less(t, p99, 20*time.Millisecond)
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
