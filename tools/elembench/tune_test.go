package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// rows builds measured calls of the given bytes, each with one time per
// mode.
func rows(bytes []int, times ...[]float64) []measured {
	var ms []measured
	for i, b := range bytes {
		m := measured{tuneCase: tuneCase{n: 1, bytes: b}}
		for _, t := range times {
			m.t = append(m.t, timing{median: t[i], min: t[i], max: t[i]})
		}
		ms = append(ms, m)
	}
	return ms
}

func TestFitRule(t *testing.T) {
	bytes := []int{1 << 10, 8 << 10, 48 << 10, 96 << 10, 1 << 20}
	// Mode 1 wins up to 48 KiB by far, mode 0 beyond by 7%.
	ms := rows(bytes, []float64{1.4, 1.4, 1.3, 1.0, 1.0}, []float64{1.0, 1.0, 1.0, 1.07, 1.07})
	r, sc := fitRule(ms, []int{0, 1}, false)
	require.Equal(t, sizeRule{small: 1, large: 0, upTo: 48 << 10}, r)
	require.Equal(t, score{calls: 5, worst: 1}, sc)
	require.Equal(t, "b up to 48 KiB, a beyond", describeRule(r, []runMode{{name: "a"}, {name: "b"}}))

	// Within missSlack a single mode beats a split.
	ms = rows(bytes, []float64{1.0, 1.0, 1.0, 1.0, 1.0}, []float64{1.02, 1.02, 1.02, 1.1, 1.1})
	r, _ = fitRule(ms, []int{0, 1}, false)
	require.Equal(t, sizeRule{small: 0, large: 0, upTo: -1}, r)
	require.Equal(t, "a for every call", describeRule(r, []runMode{{name: "a"}, {name: "b"}}))

	// One call that a burst of other work slowed twofold does not move
	// the crossover.
	ms = rows(bytes, []float64{1.4, 1.4, 1.3, 1.0, 1.0}, []float64{2.0, 1.0, 1.0, 1.07, 1.07})
	r, sc = fitRule(ms, []int{0, 1}, false)
	require.Equal(t, sizeRule{small: 1, large: 0, upTo: 48 << 10}, r)
	require.Equal(t, 1, sc.misses)
	require.Equal(t, "1 of 5 calls more than 3% slower than the fastest, worst 1.43x", sc.String())
}

func TestFitStream(t *testing.T) {
	bytes := []int{1 << 20, 2 << 20, 3 << 20, 6 << 20, 12 << 20, 64 << 20}
	// Streaming (1) loses below 3 MiB and ties from 6 MiB: the threshold
	// that streams fewest calls as well streams from 3 MiB.
	ms := rows(bytes, []float64{1.0, 1.0, 1.3, 1.0, 1.0, 1.0}, []float64{2.0, 1.4, 1.0, 1.0, 1.0, 1.0})
	f, sc := fitStream(ms)
	require.Equal(t, kernel.StreamPolicy{Min: 3 << 20}, f)
	require.Zero(t, sc.misses)
	require.Equal(t, "from 3 MiB", f.String())

	// Streaming loses 8% at 6 and 12 MiB and wins at 64 MiB: a gap.
	ms = rows(bytes, []float64{1.0, 1.0, 1.3, 1.0, 1.0, 1.4}, []float64{2.0, 1.4, 1.0, 1.08, 1.08, 1.0})
	f, _ = fitStream(ms)
	require.Equal(t, kernel.StreamPolicy{Min: 3 << 20, Gap: [2]int{6 << 20, 64 << 20}}, f)
	require.Equal(t, "from 3 MiB except 6 MiB to 64 MiB", f.String())
	require.True(t, f.Streams(3<<20) && !f.Streams(12<<20) && f.Streams(64<<20) && !f.Streams(2<<20))

	// Streaming never wins.
	ms = rows(bytes, []float64{1, 1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2, 2})
	f, _ = fitStream(ms)
	require.Equal(t, "never", f.String())
}

func TestCacheGrid(t *testing.T) {
	require.Equal(t, []int{24 << 10, 34756, 48 << 10, 69511, 96 << 10}, cacheGrid(48<<10, 20<<10, 100<<10))
}

func TestNearestLevel(t *testing.T) {
	cs := cpuinfo.Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20}
	for _, c := range []struct {
		bytes     int
		streaming bool
		name      string
		size      int
	}{
		{48 << 10, false, "levelL1d", 48 << 10},
		{96 << 10, false, "levelL1d", 48 << 10},
		{1 << 20, false, "levelL2", 2 << 20},
		{3 << 20, true, "levelL2", 2 << 20},
		{256 << 20, true, "levelLast", 480 << 20},
	} {
		name, size := nearestLevel(c.bytes, cs, c.streaming)
		require.Equal(t, c.name, name, c.bytes)
		require.Equal(t, c.size, size, c.bytes)
	}
}

func TestTuneFlags(t *testing.T) {
	_, err := parseFlags([]string{"-check"})
	require.ErrorContains(t, err, "-check needs -tune")
	cfg, err := parseFlags([]string{"-tune", "-check"})
	require.NoError(t, err)
	require.True(t, cfg.tune && cfg.check)
	require.Equal(t, tuneRounds, cfg.reps)
	require.Equal(t, tuneMinTime, cfg.minTime)
	cfg, err = parseFlags([]string{"-tune", "-reps", "3"})
	require.NoError(t, err)
	require.Equal(t, 3, cfg.reps, "-reps given: kept")
}
