package kernel

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestChoose pins ELEM_IMPL: a known, available name forces it; nothing,
// "auto", and anything else give the automatic choice, the last with a
// warning naming what runs.
func TestChoose(t *testing.T) {
	def := AutoBase()
	for _, n := range AvailableNames() {
		l, forced, why, warn := choose(n)
		require.Equal(t, n, l.String())
		require.True(t, forced)
		require.Equal(t, "ELEM_IMPL="+n, why)
		require.False(t, warn)
	}
	for env, want := range map[string]string{"": "the default for this CPU", "auto": "ELEM_IMPL=auto", " AUTO ": "ELEM_IMPL=AUTO"} {
		l, forced, why, warn := choose(env)
		require.Equal(t, def, l)
		require.False(t, forced)
		require.Equal(t, want, why)
		require.False(t, warn)
	}

	l, forced, why, warn := choose("sse9")
	require.Equal(t, def, l)
	require.False(t, forced)
	require.True(t, warn)
	require.Equal(t, `elem: ELEM_IMPL="sse9" is not an implementation (known: generic, avx2, avx512, neon); using `+def.String(), why)

	for _, n := range implNames {
		if slices.Contains(AvailableNames(), n) {
			continue
		}
		l, forced, why, warn = choose(n)
		require.Equal(t, def, l)
		require.False(t, forced)
		require.True(t, warn)
		require.Contains(t, why, "is not available on this CPU or build")
		require.Contains(t, why, "using "+def.String())
	}
}

// TestUse checks that a forced implementation runs calls of every class
// and size, and that the automatic mode reports its base implementation.
func TestUse(t *testing.T) {
	defer Restore(Save())
	for _, i := range Available() {
		Use(i, "test")
		require.True(t, Forced())
		require.Equal(t, i, Current())
		require.Equal(t, "test", Reason())
		for c := range numClasses {
			for _, bytes := range []int{0, 1, 1 << 10, 48 << 10, 1 << 30} {
				require.Equal(t, i, implFor(c, bytes, false))
				require.Equal(t, i, implFor(c, bytes, true))
			}
		}
		require.Contains(t, Describe(), i.String()+" for every call (test)")
	}
	UseAuto("again")
	require.False(t, Forced())
	require.Equal(t, AutoBase(), Current())
	require.Equal(t, "again", Reason())
	require.Equal(t, autoDispatch.base, implFor(classMemory, 1<<30, false))
}

// TestSaveRestore checks that Restore puts back the dispatch and the
// streaming threshold.
func TestSaveRestore(t *testing.T) {
	s := Save()
	before, streamMin := Reason(), StreamMinBytes()
	Use(Generic, "changed")
	SetStreamMinBytes(12345)
	Restore(s)
	require.Equal(t, before, Reason())
	require.Equal(t, streamMin, StreamMinBytes())
}

// TestImplAmong pins the choice for a call with kernels on some
// implementations only: the automatic choice moves to the fast
// implementation when the one it picks lacks the kernel, and the other way
// round; a forced one stays.
func TestImplAmong(t *testing.T) {
	defer Restore(Save())
	const base, fast = Impl(1), Impl(2)
	auto := &dispatch{fast: fast, base: base, fastMax: [numClasses]int{1000, 1000, 1000}}
	forced := &dispatch{fast: base, base: base, fastMax: noFast, forced: true}
	tests := []struct {
		d     *dispatch
		bytes int
		has   uint32
		want  Impl
	}{
		{auto, 1 << 20, 1 << fast, fast},         // base lacks it: fast
		{auto, 1 << 20, 1<<fast | 1<<base, base}, // base has it: base, as implFor
		{auto, 100, 1 << fast, fast},             // fast by size anyway
		{auto, 100, 1 << base, base},             // fast lacks it: base
		{forced, 1 << 20, 1 << fast, base},       // forced stays forced
	}
	for _, tt := range tests {
		active.Store(tt.d)
		require.Equal(t, tt.want, implAmong(classMemory, tt.bytes, false, tt.has), "%+v bytes %d has %b", tt.d, tt.bytes, tt.has)
	}
}
