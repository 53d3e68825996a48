package split

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCount(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	const grain, maxInt = 1000, int(^uint(0) >> 1)
	for _, c := range []struct {
		workers, total, size, want int
	}{
		{4, 0, 1, 1},
		{4, 1999, 1, 1},
		{4, 2000, 1, 2},
		{4, 100000, 1, 4},
		{1, 100000, 1, 1},
		{0, 100000, 1, procs},
		{-1, 100000, 1, procs},
		{4, 1, 100 * grain, 1}, // one unit cannot be split
		{4, 3, 1500, 3},        // fewer units than workers
		{4, 7, 600, 3},         // two units make a grain
		{4, 9, maxInt, 4},      // no overflow
		{4, -3, 5, 1},
		{4, 3, -5, 1},
	} {
		require.Equal(t, c.want, Count(c.workers, c.total, c.size, grain), "Count(%d, %d, %d)", c.workers, c.total, c.size)
	}
}

// TestParts checks that parts cover [0, total) in order, that inner bounds
// fall on the grid, and that parts are balanced to a cell (the last cell may
// be partial).
func TestParts(t *testing.T) {
	for _, c := range []struct{ n, total, head, align int }{
		{1, 10, 0, 1}, {3, 10, 0, 1}, {4, 3, 0, 1}, {3, 100, 0, 16}, {3, 100, 5, 16},
		{7, 1000005, 13, 16}, {2, 5, 3, 16}, {5, 0, 0, 1}, {2, 17, 16, 16},
	} {
		t.Run(fmt.Sprintf("%+v", c), func(t *testing.T) {
			s := Even(c.n, c.total, c.head, c.align)
			require.LessOrEqual(t, s.Len(), max(1, c.n))
			next := 0
			minSize, maxSize := c.total, 0
			for i := range s.Len() {
				lo, hi := s.Bounds(i)
				require.Equal(t, next, lo, "part %d starts where %d ended", i, i-1)
				require.True(t, hi > lo || c.total == 0, "part %d is empty", i)
				if i > 0 {
					require.Zero(t, (lo-min(c.head, c.total))%c.align, "part %d starts on the grid", i)
					minSize, maxSize = min(minSize, hi-lo), max(maxSize, hi-lo)
				}
				next = hi
			}
			require.Equal(t, c.total, next)
			if s.Len() > 2 {
				require.Less(t, maxSize-minSize, 2*c.align, "balanced to a cell, the last one possibly partial")
			}
		})
	}
}

func TestRun(t *testing.T) {
	var done [100]atomic.Int32
	Even(7, len(done), 0, 3).Run(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			done[i].Add(1)
		}
	})
	for i := range done {
		require.Equal(t, int32(1), done[i].Load(), "element %d", i)
	}
}
