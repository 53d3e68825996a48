package kernel

import (
	"math"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/cpuinfo"
)

// The CPUs the rules were measured on, and others, as cpuinfo reads them.
var (
	xeon167 = cpuinfo.CPU{Vendor: cpuinfo.Intel, Family: 6, Model: 167,
		Caches: cpuinfo.Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20, Source: "cpuid"}}
	xeon207 = cpuinfo.CPU{Vendor: cpuinfo.Intel, Family: 6, Model: 207,
		Caches: cpuinfo.Caches{L1d: 48 << 10, L2: 2 << 20, L3: 300 << 20, Source: "cpuid"}}
	sapphireRapids = cpuinfo.CPU{Vendor: cpuinfo.Intel, Family: 6, Model: 143,
		Caches: cpuinfo.Caches{L1d: 48 << 10, L2: 2 << 20, L3: 105 << 20, Source: "cpuid"}}
	zen3 = cpuinfo.CPU{Vendor: cpuinfo.AMD, Family: 0x19, Model: 0x21,
		Caches: cpuinfo.Caches{L1d: 32 << 10, L2: 512 << 10, L3: 32 << 20, Source: "cpuid"}}
	zen4 = cpuinfo.CPU{Vendor: cpuinfo.AMD, Family: 25, Model: 17,
		Caches: cpuinfo.Caches{L1d: 32 << 10, L2: 1 << 20, L3: 32 << 20, Source: "cpuid"}}
	zen5 = cpuinfo.CPU{Vendor: cpuinfo.AMD, Family: 26, Model: 2,
		Caches: cpuinfo.Caches{L1d: 48 << 10, L2: 1 << 20, L3: 32 << 20, Source: "cpuid"}}
	smallLLC = cpuinfo.CPU{Caches: cpuinfo.Caches{L1d: 64 << 10, L2: 1 << 20, Source: "sysfs"}}
)

// widestOf is the widest implementation that has allows, as Widest is on
// this CPU.
func widestOf(has func(Impl) bool) Impl {
	if has(AVX512) {
		return AVX512
	}
	return AVX2
}

// amd64 has what the Xeon has: AVX2 and AVX-512.
func amd64(i Impl) bool { return i == Generic || i == AVX2 || i == AVX512 }

// noAVX512 is an AVX2-only amd64 CPU, or an OS that does not save the
// AVX-512 registers.
func noAVX512(i Impl) bool { return i == Generic || i == AVX2 }

func TestRules(t *testing.T) {
	none, mathOnly := noFast, noFast // mathOnly: the math functions on the widest at every size
	mathOnly[classFMA] = math.MaxInt
	mathStream := [numClasses]bool{classFMA: true}
	def := len(rules) - 1 // safe defaults
	cases := []struct {
		name       string
		cpu        cpuinfo.CPU
		has        func(Impl) bool
		rule       int
		base, fast Impl
		fastMax    [numClasses]int
		fastStream [numClasses]bool
		stream     StreamPolicy
	}{
		{"the measured Xeon", xeon167, amd64, 0, AVX2, AVX512, [numClasses]int{48 << 10, 384, math.MaxInt}, [numClasses]bool{true, false, true},
			StreamPolicy{Min: 5 << 19, Gap: [2]int{6 << 20, 48 << 20}}},
		{"the measured Zen 4", zen4, amd64, 1, AVX2, AVX512, [numClasses]int{32 << 10, 4 << 20, math.MaxInt}, mathStream,
			StreamPolicy{Min: 32 << 20 * 35 / 100, Gap: [2]int{16 << 20, 22 << 20}}},
		{"the measured Xeon model 207", xeon207, amd64, 2, AVX2, AVX512, [numClasses]int{2 << 20, 4 << 20, math.MaxInt}, [numClasses]bool{true, false, true},
			StreamPolicy{Min: 5 << 19}},
		{"the measured Zen 5: AVX-512 for every call", zen5, amd64, 3, AVX512, AVX512, none, [numClasses]bool{},
			StreamPolicy{Min: 2 << 20, Gap: [2]int{8 << 20, 11863284}}},
		{"the Zen 5 without AVX-512", zen5, noAVX512, def, AVX2, AVX2, none, [numClasses]bool{}, StreamPolicy{Min: 16 << 20}},
		{"the Zen 4 without AVX-512", zen4, noAVX512, def, AVX2, AVX2, none, [numClasses]bool{}, StreamPolicy{Min: 16 << 20}},
		{"the Xeon without AVX-512", xeon167, noAVX512, def, AVX2, AVX2, none, [numClasses]bool{}, StreamPolicy{Min: 16 << 20}},
		{"an unmeasured Intel model: AVX-512 for the math functions", sapphireRapids, amd64, def, AVX2, AVX512, mathOnly, mathStream, StreamPolicy{Min: 16 << 20}},
		{"Zen 3: half its L3", zen3, noAVX512, def, AVX2, AVX2, none, [numClasses]bool{}, StreamPolicy{Min: 16 << 20}},
		{"no L3: half the L2", smallLLC, noAVX512, def, AVX2, AVX2, none, [numClasses]bool{}, StreamPolicy{Min: 512 << 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ruleFor(c.cpu, c.has)
			require.Same(t, &rules[c.rule], r)
			d := r.dispatchFor(c.cpu.Caches, AVX2, widestOf(c.has))
			require.Equal(t, dispatch{fast: c.fast, base: c.base, fastMax: c.fastMax, fastStream: c.fastStream}, d)
			require.Equal(t, c.stream, r.streaming(c.cpu.Caches))
		})
	}
	require.Equal(t, StreamPolicy{Min: math.MaxInt}, (&rule{}).streaming(xeon167.Caches), "no streamAt: never stream")
}

// TestRuleTable checks every row: a measured CPU is named with the date
// of its measurements, and the last row matches any CPU on any build.
func TestRuleTable(t *testing.T) {
	dated := regexp.MustCompile(`measured \d{4}-\d{2}-\d{2}`)
	for _, r := range rules[:len(rules)-1] {
		require.Regexp(t, dated, r.cpu)
		require.NotEqual(t, cpuinfo.Unknown, r.vendor, r.cpu)
	}
	last := &rules[len(rules)-1]
	require.True(t, last.matches(cpuinfo.CPU{}, func(Impl) bool { return false }))
	require.Equal(t, noCache, last.fastUpTo, "the safe default runs Default() for every call but the math functions")
}

// TestImplForBySize runs the measured Xeon's dispatch through implFor: the
// fast implementation up to the L1d's bytes and for streaming calls of
// memory-bound ops, up to 384 bytes for compute-bound ones, and at every
// size for the math functions.
func TestImplForBySize(t *testing.T) {
	defer Restore(Save())
	d := rules[0].dispatchFor(xeon167.Caches, AVX2, AVX512)
	active.Store(&d)
	for _, c := range []struct {
		class  opClass
		bytes  int
		stream bool
		want   Impl
	}{
		{classMemory, 0, false, AVX512}, {classMemory, 96, false, AVX512}, {classMemory, 48 << 10, false, AVX512},
		{classMemory, 48<<10 + 1, false, AVX2}, {classMemory, 256 << 10, false, AVX2}, {classMemory, 256 << 10, true, AVX512},
		{classCompute, 96, false, AVX512}, {classCompute, 384, false, AVX512}, {classCompute, 385, false, AVX2},
		{classCompute, 48 << 10, false, AVX2}, {classCompute, 1 << 20, true, AVX2},
		// A streaming call stands for work past the caches, whatever its
		// own bytes (a piece of a chunked call): fastStream decides.
		{classMemory, 96, true, AVX512}, {classCompute, 96, true, AVX2},
		// The math functions: the widest at every size.
		{classFMA, 4, false, AVX512}, {classFMA, 1 << 30, false, AVX512}, {classFMA, 1 << 30, true, AVX512},
		// Division by one value per row is of that class, the others not.
		{divClasses[VS], 1 << 20, false, AVX512}, {divClasses[VV], 1 << 20, false, AVX2}, {divClasses[SV], 96, true, AVX2},
	} {
		require.Equal(t, c.want, implFor(c.class, c.bytes, c.stream), "class %d, %d bytes, stream %v", c.class, c.bytes, c.stream)
	}
	require.Equal(t, pickFor(&autoDispatch, classCompute, 100, false), AutoImplFor(true, 100, false))
	require.Equal(t, pickFor(&autoDispatch, classMemory, 1<<30, true), AutoImplFor(false, 1<<30, true))
}

func TestStreamThreshold(t *testing.T) {
	rule := StreamPolicy{Min: 777, Gap: [2]int{1000, 2000}}
	bad := func(env string) string {
		return `elem: ELEM_STREAM_MIN="` + env + `" is not a size in bytes (such as 3145728 or 3M); using the rule's (from 777 bytes except 1000 bytes to 1.95 KiB)`
	}
	for _, c := range []struct {
		env  string
		p    StreamPolicy
		why  string
		warn bool
	}{
		{"", rule, "the rule for this CPU", false},
		{"3145728", StreamPolicy{Min: 3 << 20}, "ELEM_STREAM_MIN=3145728", false},
		{" 3M ", StreamPolicy{Min: 3 << 20}, "ELEM_STREAM_MIN=3M", false},
		{"64k", StreamPolicy{Min: 64 << 10}, "ELEM_STREAM_MIN=64k", false},
		{"1G", StreamPolicy{Min: 1 << 30}, "ELEM_STREAM_MIN=1G", false},
		{"0", StreamPolicy{}, "ELEM_STREAM_MIN=0", false},
		{"-1", rule, bad("-1"), true},
		{"3MiB", rule, bad("3MiB"), true},
		{"M", rule, bad("M"), true},
		{"99999999999999999999", rule, bad("99999999999999999999"), true},
	} {
		p, why, warn := streamThreshold(c.env, rule)
		require.Equal(t, c.p, p, c.env)
		require.Equal(t, c.why, why, c.env)
		require.Equal(t, c.warn, warn, c.env)
	}
}

// TestStreamPolicy checks the threshold and the gap of a policy, and that
// SetStreamMinBytes leaves no gap.
func TestStreamPolicy(t *testing.T) {
	p := StreamPolicy{Min: 5 << 19, Gap: [2]int{6 << 20, 48 << 20}}
	for bytes, want := range map[int]bool{0: false, 2 << 20: false, 5 << 19: true, 6<<20 - 1: true, 6 << 20: false,
		48<<20 - 1: false, 48 << 20: true, 1 << 30: true} {
		require.Equal(t, want, p.Streams(bytes), bytes)
	}
	require.Equal(t, "from 2.5 MiB except 6 MiB to 48 MiB", p.String())
	require.Equal(t, "from 3 MiB", StreamPolicy{Min: 3 << 20}.String())
	require.Equal(t, "never", StreamPolicy{Min: math.MaxInt}.String())
	require.Equal(t, "from 3 MiB up to 8 MiB", StreamPolicy{Min: 3 << 20, Gap: [2]int{8 << 20, math.MaxInt}}.String())

	defer Restore(Save())
	streaming = p
	s := Save()
	require.Equal(t, p, s.Stream())
	SetStreamMinBytes(1 << 20)
	require.Equal(t, HasStreaming, ShouldStream(8<<20), "no gap any more")
	Restore(s)
	require.False(t, ShouldStream(8<<20))
}

// TestStreamBlock checks which blocks may take streaming stores: one row,
// rows of 2 KiB or more, and rows of whole cache lines one after another;
// not rows that end inside a line, nor rows of whole lines that do not
// follow one another (each then starts inside a line).
func TestStreamBlock(t *testing.T) {
	for _, c := range []struct {
		m, n, ldd, size int
		want            bool
	}{
		{1, 17, 0, 4, true},
		{1000, 17, 17, 4, false},
		{1000, 3, 3, 4, false},
		{1000, 16, 16, 4, true},
		{1000, 16, 20, 4, false},
		{1000, 8, 8, 8, true},
		{1000, 512, 700, 4, true},
		{1000, 511, 511, 4, false},
		{10, 600, 600, 4, true},
	} {
		require.Equal(t, c.want, StreamBlock(c.m, c.n, c.ldd, c.size), "%+v", c)
	}
	saved := Save()
	defer Restore(saved)
	SetStreamMinBytes(0)
	require.Equal(t, HasStreaming, Streaming[float32](VS, 1000, 16, 16, 16, 1))
	require.False(t, Streaming[float32](VS, 1000, 17, 17, 17, 1), "rows of 17 float32 end inside a line")
}
