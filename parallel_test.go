package elem

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdkit/elem/internal/bufplace"
	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

// TestParallelMatchesSingle checks that the flat Parallel calls give the bits
// of the single-goroutine calls, for every implementation, op and kernel.Kind, on
// data with special values and NaN payloads (the scalar too), unaligned
// starts, and dst aliasing none, a or b.
func TestParallelMatchesSingle(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testParallelFlat[float32])
		t.Run("float64", testParallelFlat[float64])
	})
}

// raceOps are the ops the Parallel calls' tests run: all of them, or two
// under -race (see testkit.Sweep), which is there for the goroutines, and
// under -short (emulators) the six that are not math functions, whose
// generic references are long and whose kernels the kernel tests check.
func raceOps() []Op { return Ops()[:testkit.Sweep(len(Ops()), 6, 2)] }

func testParallelFlat[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	sp := testkit.Specials[T]()
	sizes, offs, workers := []int{0, 100, 2 * parallelGrain, 3*parallelGrain + 17}, []int{0, 3}, []int{1, 3, 0}
	if testing.Short() { // under emulation
		sizes, offs, workers = []int{100, 3*parallelGrain + 17}, []int{3}, []int{3}
	}
	for _, n := range sizes {
		for _, off := range offs {
			a := testkit.RandomData[T](rng, n+off)[off:]
			b := testkit.RandomData[T](rng, n+off)[off:]
			for _, op := range raceOps() {
				type call struct {
					name     string
					single   func(dst []T)
					parallel func(w int, dst []T)
				}
				calls := []call{
					{"vv", func(d []T) { Apply(op, d, a, b) }, func(w int, d []T) { ParallelApply(w, op, d, a, b) }},
					{"vv dst=a", func(d []T) { Apply(op, d, d, b) }, func(w int, d []T) { ParallelApply(w, op, d, d, b) }},
					{"vv dst=b", func(d []T) { Apply(op, d, a, d) }, func(w int, d []T) { ParallelApply(w, op, d, a, d) }},
				}
				for _, s := range []T{sp[1], 1.5} { // a quiet NaN with a payload, a number
					calls = append(calls,
						call{fmt.Sprintf("vs s=%v", s), func(d []T) { ApplyScalar(op, d, a, s) }, func(w int, d []T) { ParallelApplyScalar(w, op, d, a, s) }},
						call{fmt.Sprintf("vs dst=a s=%v", s), func(d []T) { ApplyScalar(op, d, d, s) }, func(w int, d []T) { ParallelApplyScalar(w, op, d, d, s) }},
						call{fmt.Sprintf("sv s=%v", s), func(d []T) { ScalarApply(op, d, s, a) }, func(w int, d []T) { ParallelScalarApply(w, op, d, s, a) }},
						call{fmt.Sprintf("sv dst=a s=%v", s), func(d []T) { ScalarApply(op, d, s, d) }, func(w int, d []T) { ParallelScalarApply(w, op, d, s, d) }})
				}
				for _, c := range calls {
					init := a // what dst holds before the call: the input it aliases
					if strings.Contains(c.name, "dst=b") {
						init = b
					}
					want := slices.Clone(init)
					c.single(want)
					for _, w := range workers {
						g := testkit.NewGuarded[T](n, off)
						dst := g.Window()
						copy(dst, init)
						c.parallel(w, dst)
						what := fmt.Sprintf("%s %s %T n=%d off=%d workers=%d", c.name, op, T(0), n, off, w)
						testkit.RequireSameBits(t, want, dst, what)
						g.RequireGuards(t, what)
					}
				}
			}
		}
	}
}

// TestParallelApply2DMatchesSingle checks ParallelApply2D against Apply2D for
// every layout of forms2D, with shapes that split into several bands.
func TestParallelApply2DMatchesSingle(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testParallel2D[float32])
		t.Run("float64", testParallel2D[float64])
	})
}

func testParallel2D[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const pool = 3 * (40000 + 7) // enough for every shape and layout below
	pa, pb, pd := testkit.RandomData[T](rng, pool), testkit.RandomData[T](rng, pool), testkit.RandomData[T](rng, pool)
	shapes, workers := [][2]int{{1, 3 * parallelGrain}, {3, 40000}, {300, 257}}, []int{2, 0}
	if testing.Short() { // under emulation
		shapes, workers = [][2]int{{3, 40000}, {300, 257}}, []int{2}
	}
	if testkit.Race { // see testkit.Sweep: a shape that splits, the smallest
		shapes = [][2]int{{300, 257}}
	}
	for _, f := range forms2D {
		for _, shape := range shapes {
			m, n := shape[0], shape[1]
			lda, inca := f.a(n)
			ldb, incb := f.b(n)
			ldd := n + f.lddPadding
			a, b, start := pa[:need(m, n, lda, inca)], pb[:need(m, n, ldb, incb)], pd[:need(m, n, ldd, 1)]
			for _, op := range raceOps() {
				want := slices.Clone(start)
				Apply2D(op, m, n, want, ldd, a, lda, inca, b, ldb, incb)
				for _, w := range workers {
					g := testkit.NewGuarded[T](len(start), 5)
					dst := g.Window()
					copy(dst, start)
					ParallelApply2D(w, op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
					what := fmt.Sprintf("%s %s %T m=%d n=%d workers=%d", f.name, op, T(0), m, n, w)
					testkit.RequireSameBits(t, want, dst, what)
					g.RequireGuards(t, what)
				}
			}
		}
	}
}

func TestParallelApply2DInPlace(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		const m, n, ld = 9, 10000, 10003
		mat := testkit.RandomData[float64](rand.New(rand.NewPCG(15, 16)), m*ld)
		row := testkit.RandomData[float64](rand.New(rand.NewPCG(17, 18)), n)
		want, got := slices.Clone(mat), slices.Clone(mat)
		Apply2D(OpSub, m, n, want, ld, want, ld, 1, row, 0, 1)
		ParallelApply2D(3, OpSub, m, n, got, ld, got, ld, 1, row, 0, 1)
		testkit.RequireSameBits(t, want, got, "dst = a")
		Apply2D(OpDiv, m, n, want, ld, row, 0, 1, want, ld, 1)
		ParallelApply2D(3, OpDiv, m, n, got, ld, row, 0, 1, got, ld, 1)
		testkit.RequireSameBits(t, want, got, "dst = b")
	})
}

// TestParallelBadCalls checks that a bad call panics with exactly the message
// of the single-goroutine call and writes nothing, at sizes that would split.
func TestParallelBadCalls(t *testing.T) {
	const n = 4 * parallelGrain
	buf := testkit.RandomData[float32](rand.New(rand.NewPCG(19, 20)), 2*n)
	other := make([]float32, 2*n)
	cases := []struct {
		name             string
		single, parallel func()
	}{
		{"lengths",
			func() { Apply(OpAdd, buf[:n], other[:n], other[:n-1]) },
			func() { ParallelApply(4, OpAdd, buf[:n], other[:n], other[:n-1]) }},
		{"scalar lengths",
			func() { ApplyScalar(OpMul, buf[:n], other[:n+1], 2) },
			func() { ParallelApplyScalar(4, OpMul, buf[:n], other[:n+1], 2) }},
		{"left scalar lengths",
			func() { ScalarApply(OpSub, buf[:n], 1, other[:n-16]) },
			func() { ParallelScalarApply(4, OpSub, buf[:n], 1, other[:n-16]) }},
		{"shifted",
			func() { Apply(OpAdd, buf[1:n+1], buf[:n], other[:n]) },
			func() { ParallelApply(4, OpAdd, buf[1:n+1], buf[:n], other[:n]) }},
		{"b shifted",
			func() { Apply(OpMax, buf[:n], other[:n], buf[16:n+16]) },
			func() { ParallelApply(4, OpMax, buf[:n], other[:n], buf[16:n+16]) }},
		{"scalar shifted",
			func() { ApplyScalar(OpDiv, buf[:n], buf[8:n+8], 3) },
			func() { ParallelApplyScalar(4, OpDiv, buf[:n], buf[8:n+8], 3) }},
		{"left scalar shifted",
			func() { ScalarApply(OpMin, buf[8:n+8], 3, buf[:n]) },
			func() { ParallelScalarApply(4, OpMin, buf[8:n+8], 3, buf[:n]) }},
		{"invalid op",
			func() { Apply(Op(40), buf[:n], other[:n], other[:n]) },
			func() { ParallelApply(4, Op(40), buf[:n], other[:n], other[:n]) }},
		{"invalid scalar op",
			func() { ApplyScalar(Op(41), buf[:n], other[:n], 1) },
			func() { ParallelApplyScalar(4, Op(41), buf[:n], other[:n], 1) }},
		{"invalid left scalar op",
			func() { ScalarApply(Op(42), buf[:n], 1, other[:n]) },
			func() { ParallelScalarApply(4, Op(42), buf[:n], 1, other[:n]) }},
		{"2-D invalid op",
			func() { Apply2D(Op(43), 4, n/4, buf, n/4, other, n/4, 1, other, 0, 1) },
			func() { ParallelApply2D(4, Op(43), 4, n/4, buf, n/4, other, n/4, 1, other, 0, 1) }},
		{"2-D a too short",
			func() { Apply2D(OpAdd, 4, n/4, buf, n/4, other[:n-1], n/4, 1, other, 0, 1) },
			func() { ParallelApply2D(4, OpAdd, 4, n/4, buf, n/4, other[:n-1], n/4, 1, other, 0, 1) }},
		{"2-D rows overlap",
			func() { Apply2D(OpAdd, 4, n/4, buf, n/4-1, other, n/4, 1, other, 0, 1) },
			func() { ParallelApply2D(4, OpAdd, 4, n/4, buf, n/4-1, other, n/4, 1, other, 0, 1) }},
		{"2-D input inside dst",
			func() { Apply2D(OpAdd, 4, n/4, buf, n/4, buf[1:], n/4, 1, other, 0, 1) },
			func() { ParallelApply2D(4, OpAdd, 4, n/4, buf, n/4, buf[1:], n/4, 1, other, 0, 1) }},
		{"2-D negative stride",
			func() { Apply2D(OpAdd, 4, n/4, buf, n/4, other, -1, 1, other, 0, 1) },
			func() { ParallelApply2D(4, OpAdd, 4, n/4, buf, n/4, other, -1, 1, other, 0, 1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := panicValue(c.single)
			require.NotNil(t, want, "the single-goroutine call must panic")
			before := slices.Clone(buf)
			require.PanicsWithValue(t, want, c.parallel)
			testkit.RequireSameBits(t, before, buf, "nothing written")
		})
	}
}

func panicValue(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func TestParallelWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	flat := []struct {
		workers, n, want int
	}{
		{4, 0, 1},
		{4, 2*parallelGrain - 1, 1},
		{4, 2 * parallelGrain, 2},
		{4, 100 * parallelGrain, 4},
		{1, 100 * parallelGrain, 1},
		{0, 100 * parallelGrain, procs},
		{-1, 100 * parallelGrain, procs},
	}
	for _, c := range flat {
		require.Equal(t, c.want, flatWorkers(c.workers, c.n), "flatWorkers(%d, %d)", c.workers, c.n)
	}
	const maxInt = int(^uint(0) >> 1)
	rows := []struct {
		workers, m, n, want int
	}{
		{4, 1, 100 * parallelGrain, 1},         // one row
		{4, 3, 40000, 3},                       // fewer rows than workers
		{4, 7, 20000, 3},                       // two rows make a grain
		{4, 300, 257, 2},                       // 128 rows make a grain
		{4, 100, 100, 1},                       // all of it is less than two grains
		{4, 9, maxInt, 4},                      // no overflow
		{0, 64, parallelGrain, min(procs, 64)}, // GOMAXPROCS
		{4, 0, 5, 1},
		{4, -3, 5, 1},
		{4, 3, -5, 1},
	}
	for _, c := range rows {
		require.Equal(t, c.want, rowWorkers(c.workers, c.m, c.n), "rowWorkers(%d, %d, %d)", c.workers, c.m, c.n)
	}
}

// TestFlatBounds checks that the parts cover [0, n) in order, that every
// inner bound is on a cache line of dst, and that they are balanced.
func TestFlatBounds(t *testing.T) {
	cases := []struct {
		n, w int
		addr uintptr
		size int
	}{
		{2 * parallelGrain, 2, 0x1000, 4},
		{2 * parallelGrain, 2, 0x1004, 4},
		{3*parallelGrain + 17, 3, 0x103c, 4},
		{3*parallelGrain + 17, 3, 0x1038, 8},
		{100*parallelGrain + 5, 7, 0x2008, 8},
		{100 * parallelGrain, 16, 0x2004, 8}, // float64 4-aligned, as on 386: no line alignment possible
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d w=%d addr=%#x size=%d", c.n, c.w, c.addr, c.size), func(t *testing.T) {
			parts := flatParts(c.n, c.w, c.addr, c.size)
			require.Equal(t, c.w, parts.Len())
			b := []int{0}
			for i := range c.w {
				lo, hi := parts.Bounds(i)
				require.Equal(t, b[i], lo)
				b = append(b, hi)
			}
			require.Equal(t, 0, b[0])
			require.Equal(t, c.n, b[c.w])
			for i := 1; i <= c.w; i++ {
				size := b[i] - b[i-1]
				require.InDelta(t, c.n/c.w, size, float64(c.w*(lineBytes/c.size+1)), "chunk %d of %v", i-1, b)
				if i < c.w && c.addr%uintptr(c.size) == 0 {
					require.Zero(t, (c.addr+uintptr(b[i]*c.size))%lineBytes, "bound %d of %v on a cache line", i, b)
				}
			}
		})
	}
}

// BenchmarkParallel times the Parallel calls on DRAM-sized float32 data (run
// with -elem.huge): C-16M is ParallelApply(add) and S-16M
// ParallelApplyScalar(add) on 16777216 elements, with 1, 2 and GOMAXPROCS
// workers. Buffers as in BenchmarkKernel.
func BenchmarkParallel(b *testing.B) {
	if !*benchHuge {
		b.Skip("DRAM-sized: run with -elem.huge")
	}
	const n = 1 << 24
	bufs := bufplace.Three[float32](n)
	x, y, dst := bufs[0], bufs[1], bufs[2]
	for i := range x {
		x[i], y[i] = float32(i%97)+1.5, float32(i%89)+0.25
	}
	workers := []int{1, 2}
	if p := runtime.GOMAXPROCS(0); p > 2 {
		workers = append(workers, p)
	}
	size := int64(unsafe.Sizeof(float32(0)))
	for _, w := range workers {
		b.Run(fmt.Sprintf("C-16M/workers=%d", w), func(b *testing.B) {
			b.SetBytes(3 * n * size)
			for b.Loop() {
				ParallelApply(w, OpAdd, dst, x, y)
			}
		})
	}
	for _, w := range workers {
		b.Run(fmt.Sprintf("S-16M/workers=%d", w), func(b *testing.B) {
			b.SetBytes(2 * n * size)
			for b.Loop() {
				ParallelApplyScalar(w, OpAdd, dst, x, 2.5)
			}
		})
	}
}
