package kernel

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/simdkit/elem/internal/cpuinfo"
)

// cacheLevel names a cache whose size a rule scales.
type cacheLevel uint8

const (
	noCache   cacheLevel = iota // no size: the rule's fast implementation never runs, it never streams
	levelL1d                    // the level-1 data cache of one core
	levelL2                     // the level-2 cache
	levelLast                   // the last-level cache, whole
)

var levelNames = [...]string{noCache: "none", levelL1d: "L1d", levelL2: "L2", levelLast: "last-level cache"}

// size is the size of cache l in cs.
func (l cacheLevel) size(cs cpuinfo.Caches) int {
	switch l {
	case levelL1d:
		return cs.L1d
	case levelL2:
		return cs.L2
	case levelLast:
		return cs.LastLevel()
	}
	return -1
}

// A rule is the automatic dispatch on one kind of CPU: which implementation
// runs which calls, and from how many bytes calls write with streaming
// stores, both relative to the CPU's cache sizes. The rows of rules come
// from `elembench -tune` on the CPU they name; every other CPU gets the
// last row, safe defaults.
type rule struct {
	// cpu names the CPU measured and when, or what a default row covers.
	cpu string
	// vendor, family and models select the CPUs the rule is for: Unknown,
	// 0 and nil match any.
	vendor cpuinfo.Vendor
	family int
	models []int
	// fast runs the calls of memory-bound ops whose bytes (output and
	// every input row) fit in the fastUpTo cache, and with fastStream
	// those that write with streaming stores, and the calls of
	// compute-bound ops (div) of at most fastComputeUpTo bytes (0: none);
	// base, or Default() where base is Generic, runs every other call.
	// The rule is skipped on a CPU or build without fast or base.
	base            Impl
	fast            Impl
	fastUpTo        cacheLevel
	fastComputeUpTo int
	fastStream      bool
	// Streaming stores start at streamPercent percent of the streamAt
	// cache's size, and at streamCap bytes at the latest when it is set.
	streamAt      cacheLevel
	streamPercent int
	streamCap     int
	// streamGap, where set, are the bytes [from, to) of calls that do
	// not stream after all: measured where the last-level cache holds
	// them better than memory takes their streaming stores.
	streamGap [2]int
}

// rules are tried in order; the last matches every CPU.
var rules = []rule{
	{
		// From elembench -tune and -tune -check (float32 and float64
		// add, mul, div, max), fastest of interleaved rounds: AVX-512
		// 1.25-1.6x faster than AVX2 while a call's bytes fit in the 48
		// KiB L1d (crossover at exactly that size: vv at n = 4096
		// float32s against 5793, vs at 6144 against 8689), 5-9% slower
		// in the L2, the same beyond. div: AVX-512 6-8% slower from 544
		// bytes on (vs at 68 float32s 19%), 3-9% faster up to 384 bytes
		// and at vv n = 64 (768 bytes). Streaming stores: 1.2-1.3x
		// faster than ordinary ones from 2.8 MiB (1.4x the 2 MiB L2; at
		// 2.25 MiB even, at 2 MiB 0.7x), 5-9% slower for vs and even for
		// vv from 8 to 45 MiB while the machine was quiet (with busy
		// neighbours on the host they won there too), 1.2-1.5x faster
		// from 64 MiB; with AVX-512's full-line stores max runs 5-15%
		// faster than with AVX2's at 64-256 MiB, add and mul the same
		// within noise, div f64 6% slower (so not div).
		cpu:    "Intel Xeon family 6 model 167 (AVX-512 F/BW/DQ/VL/FP16, 48 KiB L1d, 2 MiB L2; 2-core KVM guest), measured 2026-11-23",
		vendor: cpuinfo.Intel, family: 6, models: []int{167},
		fast: AVX512, fastUpTo: levelL1d, fastComputeUpTo: 384, fastStream: true,
		streamAt: levelL2, streamPercent: 125, streamGap: [2]int{6 << 20, 48 << 20},
	},
	{
		// From elembench -tune and -tune -check (float32 and float64
		// add, mul, div, max), fastest of 9 interleaved rounds on a
		// 2-core guest shared with other busy processes, so every cell
		// was noisy: Zen 4 runs AVX-512 double-pumped, and memory-bound
		// ops tie with AVX2 within 3% at most sizes, with AVX-512 ahead
		// at L1 sizes in -check (max float32 vs n = 1000 0.051 vs 0.060,
		// vv 0.062 vs 0.067; max float64 vv n = 64 0.284 vs 0.396; add
		// float32 vv n = 64 0.235 vs 0.241), the same beyond. div:
		// AVX-512 3-10% faster for float64 from 720 bytes to 4 MiB (vv
		// n = 1000 0.314 vs 0.336), float32 the same. Streaming stores
		// (a second -tune while the neighbours were quieter): for vv
		// faster from 8 MiB (add 0.147 vs 0.160; 11.3 MiB 0.149 vs
		// 0.172, 16 MiB 0.144 vs 0.174), for vs slower up to 16 MiB
		// (0.143 vs 0.124) and faster from 22.6 MiB (0.142 vs 0.162),
		// 1.5-2x for both beyond; -check agreed (vs at 16 MiB 1.13-1.27x
		// slower streaming, vv at 24 MiB 1.7x faster). -tune fitted
		// from 35% of the 32 MiB L3 except 16 to 22 MiB. AVX-512
		// streaming stores were not consistently faster than AVX2's.
		cpu:    "AMD EPYC family 25 model 17 (Zen 4; AVX-512 F/DQ/BW/VL, 32 KiB L1d, 1 MiB L2, 32 MiB L3; 2-core KVM guest), measured 2026-11-23",
		vendor: cpuinfo.AMD, family: 25, models: []int{17},
		fast: AVX512, fastUpTo: levelL1d, fastComputeUpTo: 4 << 20,
		streamAt: levelLast, streamPercent: 35, streamGap: [2]int{16 << 20, 22 << 20},
	},
	{
		// From three elembench -tune runs (float32 and float64 add, mul,
		// div, max; fastest of 9 interleaved rounds, the machine quiet
		// but shared) and BenchmarkStream (medians of 5). Memory-bound
		// ops: AVX-512 fastest while a call fits in the L1d in every run
		// (one run had it tie or win everywhere, the others gave AVX2 the
		// L2 sizes by 3-15%); -tune -check with AVX-512 up to the L1d had
		// it 3-9% faster than AVX2 at 16000 elements (125-375 KiB) and
		// worst auto/best 1.11, up to the L2 the two within 5% there and
		// worst 1.08, so up to the L2. div: AVX-512 fastest up to 4.24 MiB in two
		// runs of three (worst 1.11-1.34x for AVX2 below that). Streaming
		// stores: from 2 MiB (two runs) or 2.83 MiB (one); AddScalar at 2
		// MiB ran 1.10-1.19x slower streaming and Add at 3 MiB 0.73x
		// faster (BenchmarkStream), so from 1.25x the L2 as on model 167.
		// AVX-512's streaming stores beat AVX2's past the last-level
		// cache (16M float32: AddScalar 0.427 vs 0.585 ns/elem, Add 0.723
		// vs 0.819, FMA 0.693 vs 0.821, Select 0.707 vs 0.830).
		cpu:    "Intel Xeon family 6 model 207 (AVX-512 F/BW/DQ/VL/FP16, 48 KiB L1d, 2 MiB L2; 2-core KVM guest), measured 2026-11-26",
		vendor: cpuinfo.Intel, family: 6, models: []int{207},
		fast: AVX512, fastUpTo: levelL2, fastComputeUpTo: 4 << 20, fastStream: true,
		streamAt: levelL2, streamPercent: 125,
	},
	{
		// From elembench -tune (float32 and float64 add, mul, div, max;
		// fastest of 7 interleaved rounds, the machine quiet): Zen 5 has
		// full-width AVX-512 units, and AVX-512 was fastest for every
		// memory-bound call but 2 of 116 (worst 1.06x), 1.05-1.8x faster
		// than AVX2 in the L1d (1.2x and more from 1.4 KiB; add float32 vv
		// at 16 KiB 0.032 vs 0.047 ns per element); div 1.2-2x faster
		// from 2 KiB on (float64 vv at 32 KiB 0.138 vs 0.275), AVX2 ahead
		// only on some vs calls of at most 1 KiB (float32 at 1 KiB 0.090
		// vs 0.109, float64 at 256 bytes 0.547 vs 0.641), so AVX-512 runs
		// every call. Streaming
		// stores: vv 1.2x faster from 1.41 MiB (add float32 at 2 MiB 0.091
		// vs 0.118, at 64 MiB 0.144 vs 0.199), vs even with ordinary stores
		// from 4 MiB and faster from 32 MiB; AVX2's and AVX-512's streaming
		// stores within noise of each other. -tune fitted from 2x the L2,
		// except 8 to 11.3 MiB where the two were even. -tune -check:
		// worst auto/best 1.27 (div float32 vs at 128 MiB, AVX-512's
		// streaming stores 0.164 against AVX2's 0.137, which swap places
		// from op to op: add float64 vv at 384 MiB 0.622 against 0.672).
		cpu:    "AMD EPYC family 26 model 2 (Zen 5; AVX-512 F/DQ/BW/VL, 48 KiB L1d, 1 MiB L2, 32 MiB L3 per complex; 2-core KVM guest), measured 2026-12-04",
		vendor: cpuinfo.AMD, family: 26, models: []int{2},
		base:     AVX512,
		streamAt: levelL2, streamPercent: 200, streamGap: [2]int{8 << 20, 11863284},
	},
	{
		// Streaming stores: measured on a 32 MiB-L3 Zen 3 (float32,
		// ns/elem, ordinary vs streaming): Add at 1M elements (12 MiB)
		// 0.188 vs 0.202, at 2M (24 MiB) 0.342 vs 0.254; AddScalar at 2M
		// (16 MiB) 0.189 vs 0.187, at 4M 0.247 vs 0.195: from half its
		// last-level cache. 16 MiB, the constant used before any CPU was
		// told apart, caps it where the last level is huge or unknown.
		cpu:      "any other CPU: safe defaults (Default() for every call; streaming from half the last-level cache as on Zen 3, at most 16 MiB)",
		streamAt: levelLast, streamPercent: 50, streamCap: 16 << 20,
	},
}

// matches reports whether r is for CPU c on a build that can run the
// implementations available (has).
func (r *rule) matches(c cpuinfo.CPU, has func(Impl) bool) bool {
	return (r.vendor == cpuinfo.Unknown || r.vendor == c.Vendor) &&
		(r.family == 0 || r.family == c.Family) &&
		(len(r.models) == 0 || slices.Contains(r.models, c.Model)) &&
		(!r.usesFast() || has(r.fast)) &&
		(r.base == Generic || has(r.base))
}

// usesFast reports whether r gives any call to its fast implementation.
func (r *rule) usesFast() bool { return r.fastUpTo != noCache || r.fastComputeUpTo > 0 || r.fastStream }

// ruleFor returns the first rule for CPU c.
func ruleFor(c cpuinfo.CPU, has func(Impl) bool) *rule {
	for i := range rules {
		if rules[i].matches(c, has) {
			return &rules[i]
		}
	}
	panic("kernel: the last rule matches every CPU")
}

// dispatchFor is the automatic dispatch of rule r on caches cs, with r's
// base, else base, running every call r does not give to its fast
// implementation, and widest, the widest implementation available,
// running the calls of classFMA at every size, whatever the rule.
//
// Those are tens of multiply-adds per vector, bound by the arithmetic
// units from the L1d to memory, where wider vectors do more for each
// instruction: the math functions, and a division by one value per row
// (DivScalar, Softmax's last pass), which AVX-512 computes from the
// reciprocal (see gen/x86_div.go) where AVX2 keeps the divider. The
// rules' measurements (cheap ops, div vv) do not carry over to them.
// Intel Xeon family 6 model 167 (the first rule's CPU, which runs AVX2
// for div from 384 bytes), float32, BenchmarkKernel, ns per call,
// AVX-512 against AVX2: exp2 at n = 1000 196 vs 375, at 262144 58k vs
// 115k, at 16M 9.5M vs 14.7M; log at 16M 11.9M vs 20.2M; pow vv at 16M
// 68M vs 76M; hypot vs at 16M 14.0M vs 33.0M; float64 erf at 16M 134M vs
// 290M, exp2 at 1000 476 vs 1028; div vs at 1000 92 vs 165, at 16000
// 1457 vs 2661, at 262144 32k vs 43k (div vv and sv: AVX2 5-10% ahead up
// to 16000, even at 262144). AVX-512 was 1.1-2.5x faster at every size
// and function measured. Zen 5 runs AVX-512 for every call anyway; Zen 4
// ran these on AVX-512 up to 4 MiB by the compute class and now beyond
// too (not measured there past 4 MiB).
func (r *rule) dispatchFor(cs cpuinfo.Caches, base, widest Impl) dispatch {
	if r.base != Generic {
		base = r.base
	}
	d := dispatch{fast: base, base: base, fastMax: noFast}
	if r.usesFast() {
		d.fast, d.fastStream[classMemory] = r.fast, r.fastStream
		if r.fastUpTo != noCache {
			d.fastMax[classMemory] = r.fastUpTo.size(cs)
		}
		if r.fastComputeUpTo > 0 {
			d.fastMax[classCompute] = r.fastComputeUpTo
		}
	}
	if widest != base && (d.fast == base || d.fast == widest) {
		d.fast = widest
		d.fastMax[classFMA], d.fastStream[classFMA] = math.MaxInt, true
	}
	return d
}

// streaming is the streaming policy of rule r on caches cs: never
// (math.MaxInt) for a rule without streamAt.
func (r *rule) streaming(cs cpuinfo.Caches) StreamPolicy {
	if r.streamAt == noCache {
		return StreamPolicy{Min: math.MaxInt}
	}
	n := int(int64(r.streamAt.size(cs)) * int64(r.streamPercent) / 100)
	if r.streamCap > 0 {
		n = min(n, r.streamCap)
	}
	return StreamPolicy{Min: n, Gap: r.streamGap}
}

// The automatic choice on this CPU, worked out once.
var (
	autoRule     = ruleFor(cpuinfo.Get(), Has)
	autoDispatch = autoRule.dispatchFor(cpuinfo.Get().Caches, Default(), Widest())
	autoStream   = autoRule.streaming(cpuinfo.Get().Caches)
)

// AutoBase returns the implementation the automatic dispatch on this CPU
// runs every call with that its rule gives no other: Default(), or the
// rule's base where it names one.
func AutoBase() Impl { return autoDispatch.base }

// AutoImplFor returns the implementation that the automatic dispatch on
// this CPU gives a call moving bytes bytes, of a compute-bound op (div)
// or, for compute false, of a memory-bound one, writing with streaming
// stores or not: what elembench -tune compares its measurements with.
func AutoImplFor(compute bool, bytes int, stream bool) Impl {
	c := classMemory
	if compute {
		c = classCompute
	}
	return pickFor(&autoDispatch, c, bytes, stream)
}

// Describe says what runs which calls, and from what size calls stream,
// and on what grounds: the text of elem.Dispatch.
func Describe() string {
	d := active.Load()
	var b strings.Builder
	switch {
	case d.forced:
		fmt.Fprintf(&b, "%s for every call (%s)", d.base, d.why)
	case d.fast == d.base:
		fmt.Fprintf(&b, "%s for every call", d.base)
	default:
		var parts []string
		compute := "not " + strings.Join(computeOps, ", ")
		if n := d.fastMax[classCompute]; n >= 0 {
			compute = strings.Join(computeOps, ", ") + " up to " + cpuinfo.Bytes(n)
		}
		if n := d.fastMax[classMemory]; n >= 0 {
			parts = append(parts, fmt.Sprintf("calls moving up to %s (the %s; %s)", cpuinfo.Bytes(n), levelNames[autoRule.fastUpTo], compute))
		} else if d.fastMax[classCompute] >= 0 {
			parts = append(parts, compute)
		}
		if d.fastStream[classMemory] {
			parts = append(parts, "calls with streaming stores (not "+strings.Join(computeOps, ", ")+")")
		}
		if d.fastMax[classFMA] >= 0 {
			parts = append(parts, "the math functions (Exp, Log, Sin, ...) and DivScalar at every size")
		}
		fmt.Fprintf(&b, "%s for %s; %s for the rest", d.fast, strings.Join(parts, " and "), d.base)
	}
	if HasStreaming {
		fmt.Fprintf(&b, "; streaming stores %s", streaming)
		if streamWhy != ruleStreamWhy {
			fmt.Fprintf(&b, " (%s)", streamWhy)
		}
	}
	fmt.Fprintf(&b, "; rule for %s; this CPU: %s, %s", autoRule.cpu, cpuinfo.Get(), cpuinfo.Get().Caches)
	return b.String()
}
