package broadcast

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// naive computes the NUMPY broadcast of a op b with the N-d reference loop
// of testkit over the layout's strides.
func naive[T elem.Number](op elem.Op, a []T, as Shape, b []T, bs Shape) ([]T, Shape) {
	out, err := Numpy(as, bs)
	if err != nil {
		panic(err)
	}
	sa, _ := Strides(as, out)
	sb, _ := Strides(bs, out)
	so, _ := out.Strides()
	n, _ := out.Size()
	dst := make([]T, n)
	testkit.Naive(kernel.Op(op), out, dst, so, a, sa, b, sb)
	return dst, out
}

// randomPair returns two shapes that broadcast, of rank 0..6 with sizes 0..9
// (mostly small, many 1s so that dimensions broadcast).
func randomPair(rng *rand.Rand) (Shape, Shape) {
	out := make(Shape, rng.IntN(7))
	for d := range out {
		out[d] = []int{1, 2, 3, 4, 5, 7, 9, 16, 17, 33, 0}[rng.IntN(11)]
		if rng.IntN(12) != 0 && out[d] == 0 {
			out[d] = 2
		}
	}
	pick := func() Shape {
		s := slices.Clone(out[rng.IntN(len(out)+1):])
		for d := range s {
			if rng.IntN(3) == 0 {
				s[d] = 1
			}
		}
		return s
	}
	return pick(), pick()
}

func TestRunMatchesNaive(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testRunMatchesNaive[float32])
		t.Run("float64", testRunMatchesNaive[float64])
		t.Run("int8", testRunMatchesNaive[int8])
		t.Run("uint16", testRunMatchesNaive[uint16])
		t.Run("int32", testRunMatchesNaive[int32])
		t.Run("uint64", testRunMatchesNaive[uint64])
	})
}

func testRunMatchesNaive[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := testkit.Sweep(400, 400, 60)
	if !elem.DefinedOn[T](elem.OpDiv) { // integers: fewer, as their bits are uniform
		cases /= 4
	}
	for range cases {
		as, bs := randomPair(rng)
		checkApply[T](t, rng, as, bs)
	}
}

func checkApply[T elem.Number](t *testing.T, rng *rand.Rand, as, bs Shape) {
	t.Helper()
	na, _ := as.Size()
	nb, _ := bs.Size()
	a, b := testkit.RandomNumbers[T](rng, na), testkit.RandomNumbers[T](rng, nb)
	for _, op := range elem.Ops() {
		if testing.Short() && isMathOp(op) && rng.IntN(8) != 0 {
			continue // see isMathOp
		}
		what := fmt.Sprintf("%T: %v %s %v", T(0), as, op, bs)
		if !elem.DefinedOn[T](op) {
			requireUndefinedOp(t, op, a, as, b, bs, what)
			continue
		}
		want, out := naive(op, a, as, b, bs)
		n, _ := out.Size()
		got := make([]T, n)
		require.NoError(t, Apply(op, got, a, as, b, bs), what)
		testkit.RequireSameBits(t, want, got, what)

		p, err := NewPlan(RuleNumpy, as, bs)
		require.NoError(t, err, what)
		require.Equal(t, out, p.Out())
		clear(got)
		require.NoError(t, Run(p, op, got, a, b), what)
		testkit.RequireSameBits(t, want, got, what+" (plan)")
	}
}

// isMathOp tells the binary math functions apart. Under -short (emulators)
// checkApply runs them on one pair of shapes in eight: their naive
// references are long there, and they take the same paths through Run as
// the others, on kernels the kernel tests check.
func isMathOp(op elem.Op) bool {
	return op == elem.OpHypot || op == elem.OpAtan2 || op == elem.OpPow || op == elem.OpExpSub
}

// requireUndefinedOp checks that an op not defined on T (OpDiv on integers)
// is an error wrapping ErrOp that writes nothing.
func requireUndefinedOp[T elem.Number](t *testing.T, op elem.Op, a []T, as Shape, b []T, bs Shape, what string) {
	t.Helper()
	out, err := Numpy(as, bs)
	require.NoError(t, err, what)
	n, _ := out.Size()
	got := make([]T, n)
	for i := range got {
		got[i] = 7
	}
	err = Apply(op, got, a, as, b, bs)
	require.ErrorIs(t, err, ErrOp, what)
	require.ErrorContains(t, err, fmt.Sprintf("%v is not defined on %T", op, T(0)), what)
	require.False(t, slices.ContainsFunc(got, func(x T) bool { return x != 7 }), what+": written on error")
}

// TestRunForms covers every inner-block form and size the planner picks,
// including the tile for tiny repeated rows and inner sizes around every
// vector width (fewer of them under -race, see testkit.Sweep).
func TestRunForms(t *testing.T) {
	var ns []int
	for n := 1; n <= testkit.Sweep(17, 17, 9); n++ {
		ns = append(ns, n)
	}
	ns = append(ns, []int{31, 33, 63, 64, 65, 513}[testkit.Sweep(0, 0, 4):]...)
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for _, n := range ns {
			for _, m := range []int{1, 2, 5, 97}[:testkit.Sweep(4, 4, 3)] {
				for _, pair := range [][2]Shape{
					{S(m, n), S(n)},       // row
					{S(n), S(m, n)},       // reversed row
					{S(m, n), S(m, 1)},    // column
					{S(m, 1), S(m, n)},    // reversed column
					{S(m, 1), S(1, n)},    // outer product
					{S(1, n), S(m, 1)},    // reversed outer product
					{S(3, m, n), S(m, n)}, // odometer over whole blocks
					{S(2, m, 1, n), S(1, 3, n)},
					{S(m, n), S()}, // scalar
					{S(), S(m, n)},
				} {
					checkApply[float32](t, rng, pair[0], pair[1])
				}
			}
		}
		checkApply[float64](t, rng, S(65536/64, 3), S(3)) // tile with a remainder
		// Ten dimensions that never merge: more than a plan holds inline.
		checkApply[float32](t, rng, S(2, 1, 3, 1, 2, 1, 3, 1, 2, 1), S(1, 3, 1, 2, 1, 3, 1, 2, 1, 5))
		checkApply[float64](t, rng, S(7), S(1000, 7))
		// Rank 20, more than planning holds on the stack; mostly 1s.
		long := append(append(S(2), ones(17)...), 3, 5)
		checkApply[float32](t, rng, long, S(3, 1))
		checkApply[float32](t, rng, S(5), long)
	})
}

// TestWorkloadShapes runs the benchmark workloads' shapes (smaller where
// they are large) against the naive loop.
func TestWorkloadShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, w := range [][2]Shape{
		{S(64, 1024), S(1024)}, {S(4096, 64), S(64)}, {S(64, 1024), S(64, 1)}, {S(4096, 16), S(4096, 1)},
		{S(32, 32, 3), S(3)}, {S(20000, 3), S(3)}, {S(256, 1), S(1, 256)},
		{S(8, 1, 64, 32), S(1, 16, 1, 32)}, {S(16, 1, 256), S(128, 1)}, {S(16000), S()},
	} {
		checkApply[float32](t, rng, w[0], w[1])
	}
}

// TestSeedValues checks the values the seed documents print.
func TestSeedValues(t *testing.T) {
	x := []float64{2, 3, 4, 5, 6, 7}
	y := []float64{0.5, 0, 10}
	got := make([]float64, 6)
	require.NoError(t, Apply(elem.OpMul, got, x, S(2, 3), y, S(3)))
	require.Equal(t, []float64{1, 0, 40, 2.5, 0, 70}, got)

	// primitiv: a = {}x3 [1,2,3]
	a := []float32{1, 2, 3}
	dst := make([]float32, 3)
	require.NoError(t, ApplyMinibatch(elem.OpAdd, dst, a, B(3), []float32{4, 5, 6}, B(3)))
	require.Equal(t, []float32{5, 7, 9}, dst)
	require.NoError(t, ApplyMinibatch(elem.OpAdd, dst, a, B(3), []float32{4}, B(1)))
	require.Equal(t, []float32{5, 6, 7}, dst)
	require.NoError(t, ApplyMinibatch(elem.OpAdd, dst, []float32{4}, B(1), a, B(3)))
	require.Equal(t, []float32{5, 6, 7}, dst)
	err := ApplyMinibatch(elem.OpAdd, dst, a, B(3), []float32{4, 5}, B(2))
	requireErr(t, err, errs(ErrBatch, ErrIncompatible), "different minibatch sizes: 3 and 2")
	err = ApplyMinibatch(elem.OpAdd, make([]float32, 2), []float32{4, 5}, B(2), a, B(3))
	requireErr(t, err, errs(ErrBatch, ErrIncompatible), "different minibatch sizes: 2 and 3")

	// primitiv scalar operations: a = {3} [1,2,3], b = {} [4]
	require.NoError(t, ApplyMinibatch(elem.OpAdd, dst, a, B(1, 3), []float32{4}, B(1)))
	require.Equal(t, []float32{5, 6, 7}, dst)
	require.NoError(t, ApplyMinibatch(elem.OpSub, dst, a, B(1, 3), []float32{4}, B(1)))
	require.Equal(t, []float32{-3, -2, -1}, dst)
	require.NoError(t, ApplyMinibatch(elem.OpSub, dst, []float32{4}, B(1), a, B(1, 3)))
	require.Equal(t, []float32{3, 2, 1}, dst)

	// Minibatch with dims: {2}x2 + {2}x1, batch-major data.
	got32 := make([]float32, 4)
	require.NoError(t, ApplyMinibatch(elem.OpMul, got32, []float32{1, 2, 3, 4}, B(2, 2), []float32{10, 100}, B(1, 2)))
	require.Equal(t, []float32{10, 200, 30, 400}, got32)
}

func TestInPlace(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(17, 18))
		for _, c := range [][2]Shape{
			{S(5, 3, 4, 1), S(3, 1, 1)}, {S(4, 33), S(33)}, {S(4, 33), S(4, 1)}, {S(64, 3), S(3)},
			{S(2, 3), S(2, 3)}, {S(3), S()}, {S(), S()}, {S(0, 3), S(3)},
		} {
			na, _ := c[0].Size()
			nb, _ := c[1].Size()
			a, b := testkit.RandomData[float32](rng, na), testkit.RandomData[float32](rng, nb)
			want, _ := naive(elem.OpSub, a, c[0], b, c[1])
			require.NoError(t, ApplyInPlace(elem.OpSub, a, c[0], b, c[1]), "%v -= %v", c[0], c[1])
			testkit.RequireSameBits(t, want, a, fmt.Sprintf("%v -= %v", c[0], c[1]))

			p, err := NewInPlacePlan(c[0], c[1])
			require.NoError(t, err)
			require.NoError(t, Run(p, elem.OpAdd, a, a, b))
		}
	})
	a := make([]float32, 3)
	err := ApplyInPlace(elem.OpAdd, a, S(1, 3, 1), make([]float32, 21), S(3, 1, 7))
	requireErr(t, err, errs(ErrInPlace), "7")
	err = ApplyInPlace(elem.OpAdd, a, S(3), a, S(1, 3))
	requireErr(t, err, errs(ErrInPlace))
	_, err = NewInPlacePlan(S(1, 3, 1), S(3, 1, 7))
	requireErr(t, err, errs(ErrInPlace))
}

func TestTo(t *testing.T) {
	for _, c := range []struct {
		in, target, out Shape
	}{
		{S(5), S(1), S(5)}, {S(2, 3), S(3), S(2, 3)}, {S(3, 1), S(3, 4), S(3, 4)},
		{S(3, 4), S(), S(3, 4)}, {S(3, 1), S(2, 1, 6), S(2, 3, 6)}, {S(1, 0), S(4, 1, 1), S(4, 1, 0)},
	} {
		n, _ := c.in.Size()
		in := make([]float64, n)
		for i := range in {
			in[i] = float64(i + 1)
		}
		m, _ := c.out.Size()
		dst := make([]float64, m)
		out, err := To(dst, in, c.in, c.target)
		require.NoError(t, err)
		require.Equal(t, c.out, out)
		ones := make([]float64, m)
		for i := range ones {
			ones[i] = 1
		}
		want, _ := naive(elem.OpMul, in, c.in, ones, c.out) // numpy.array(input) * numpy.ones(target)
		require.Equal(t, want, dst, "%v to %v", c.in, c.target)
	}
	_, err := To(make([]float64, 6), make([]float64, 3), S(3), S(2))
	requireErr(t, err, errs(ErrIncompatible))
	_, err = To(make([]float64, 5), make([]float64, 3), S(3), S(2, 3))
	requireErr(t, err, errs(ErrDataLength), "dst has 5 elements", "(2,3)")
	buf := make([]float64, 9)
	_, err = To(buf[:6], buf[3:6], S(3), S(2, 3))
	requireErr(t, err, errs(ErrOverlap))
}

func TestRunErrorsWriteNothing(t *testing.T) {
	buf := make([]float32, 64)
	for i := range buf {
		buf[i] = float32(i)
	}
	other := make([]float32, 64)
	p, err := NewPlan(RuleNumpy, S(4, 8), S(8))
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		run   func() error
		kinds []error
		says  []string
	}{
		{"short a", func() error { return Run(p, elem.OpAdd, other[:32], buf[:31], buf[:8]) }, errs(ErrDataLength), []string{"a has 31 elements", "(4,8)"}},
		{"long b", func() error { return Run(p, elem.OpAdd, other[:32], buf[:32], buf[:9]) }, errs(ErrDataLength), []string{"b has 9 elements", "(8)"}},
		{"short dst", func() error { return Run(p, elem.OpAdd, other[:31], buf[:32], buf[:8]) }, errs(ErrDataLength), []string{"dst has 31 elements", "(4,8)"}},
		{"b inside dst", func() error { return Run(p, elem.OpAdd, buf[:32], other[:32], buf[8:16]) }, errs(ErrOverlap), []string{"b shape (8)"}},
		{"a shifted", func() error { return Run(p, elem.OpAdd, buf[:32], buf[1:33], other[:8]) }, errs(ErrOverlap), []string{"a shape (4,8)"}},
		{"bad op", func() error { return Run(p, elem.Op(40), other[:32], buf[:32], buf[:8]) }, errs(ErrOp), []string{"Op(40)"}},
		{"incompatible", func() error { return Apply(elem.OpAdd, buf[:6], buf[:3], S(3), buf[:2], S(2)) }, errs(ErrIncompatible), []string{"(3)", "(2)"}},
		{"negative", func() error { return Apply(elem.OpAdd, buf[:6], buf[:3], S(3, -1), buf[:2], S(2)) }, errs(ErrNegativeDim), []string{"-1"}},
		{"overflow", func() error { return Apply(elem.OpAdd, buf, buf, S(huge, 1), buf, S(1, huge)) }, errs(ErrOverflow), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, otherBefore := slices.Clone(buf), slices.Clone(other)
			requireErr(t, c.run(), c.kinds, c.says...)
			require.Equal(t, before, buf)
			require.Equal(t, otherBefore, other)
		})
	}
	// Exactly a or b is fine.
	require.NoError(t, Run(p, elem.OpAdd, buf[:32], buf[:32], other[:8]))
	q, err := NewPlan(RuleNumpy, S(8), S(4, 8))
	require.NoError(t, err)
	require.NoError(t, Run(q, elem.OpAdd, buf[:32], other[:8], buf[:32]))
}

func TestPlanRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	a := testkit.RandomData[float32](rng, 120)
	b := testkit.RandomData[float32](rng, 12)
	// PDPD: (2,3,4,5) with (3,4) at axis 1 equals numpy with (3,4,1).
	p, err := NewPlan(RulePDPD(1), S(2, 3, 4, 5), S(3, 4))
	require.NoError(t, err)
	got := make([]float32, 120)
	require.NoError(t, Run(p, elem.OpDiv, got, a, b))
	want, _ := naive(elem.OpDiv, a, S(2, 3, 4, 5), b, S(3, 4, 1))
	testkit.RequireSameBits(t, want, got, "pdpd")
	_, err = NewPlan(RulePDPD(1), S(8, 1, 6, 1), S(7, 1, 5))
	requireErr(t, err, errs(ErrIncompatible))
	_, err = NewPlan(RuleNone, S(3), S(1, 3))
	requireErr(t, err, errs(ErrIncompatible, ErrRank))
	p, err = NewPlan(RuleNone, S(2, 6), S(2, 6))
	require.NoError(t, err)
	require.NoError(t, Run(p, elem.OpMin, got[:12], a[:12], b))
	want, _ = naive(elem.OpMin, a[:12], S(2, 6), b, S(2, 6))
	testkit.RequireSameBits(t, want, got[:12], "none")
}

func TestRunAllocatesNothing(t *testing.T) {
	testkit.SkipAllocsUnderRace(t)
	a, b := make([]float32, 8*64*32), make([]float32, 16*32)
	dst := make([]float32, 8*16*64*32)
	p, err := NewPlan(RuleNumpy, S(8, 1, 64, 32), S(1, 16, 1, 32))
	require.NoError(t, err)
	t3 := make([]float32, 3*4096)
	as, bs, ts, rs := S(2, 1, 2, 1), S(1, 2, 1, 2), S(4096, 3), S(3)
	batched, single := B(4096, 3), B(1, 3)
	column := S(4096)
	inPlace, err := NewInPlacePlan(ts, rs)
	require.NoError(t, err)
	bidir, err := NewBidirectionalPlan(rs, ts)
	require.NoError(t, err)
	calls := map[string]func() error{
		"Run":                     func() error { return Run(p, elem.OpAdd, dst, a, b) },
		"Apply 4-D, 16 elements":  func() error { return Apply(elem.OpAdd, dst[:16], a[:4], as, b[:4], bs) },
		"Apply tiled, in place":   func() error { return Apply(elem.OpMul, t3, t3, ts, b[:3], rs) },
		"ApplyInPlace":            func() error { return ApplyInPlace(elem.OpSub, t3, ts, b[:3], rs) },
		"ApplyMinibatch {3}x4096": func() error { return ApplyMinibatch(elem.OpAdd, t3, t3, batched, b[:3], single) },
		"ApplyRule pdpd":          func() error { return ApplyRule(RulePDPD(0), elem.OpMax, t3, t3, ts, a[:4096], column) },
		"RunInPlace":              func() error { return RunInPlace(inPlace, elem.OpDiv, t3, b[:3]) },
		"Copy":                    func() error { return Copy(bidir, dst[:3*4096], b[:3]) },
	}
	for name, call := range calls {
		require.NoError(t, call(), name)
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = call() }), name)
	}
}

// TestShapeLiteralsStayOnTheStack: every public call that takes shapes
// keeps them on the caller's stack (only error values hold copies), so that
// shape literals cost nothing: the calls that compute allocate nothing,
// and those that return shapes or plans allocate just those.
func TestShapeLiteralsStayOnTheStack(t *testing.T) {
	testkit.SkipAllocsUnderRace(t)
	img, out := make([]float32, 256*256*3), make([]float32, 256*256*3)
	gain, cond := make([]float32, 3), make([]bool, 3)
	mask, bytes := make([]bool, 256*3), make([]uint8, 256*3)
	for _, c := range []struct {
		name   string
		allocs float64 // those of the results
		call   func() error
	}{
		{"Apply (the README's call)", 0, func() error {
			return Apply(elem.OpMul, out, img, Shape{256, 256, 3}, gain, Shape{3})
		}},
		{"MustApply", 0, func() error { MustApply(elem.OpMul, out, img, Shape{256, 256, 3}, gain, Shape{3}); return nil }},
		{"ApplyRule", 0, func() error {
			return ApplyRule(RulePDPD(2), elem.OpAdd, out, img, Shape{256, 256, 3}, gain, Shape{3})
		}},
		{"ApplyInPlace", 0, func() error { return ApplyInPlace(elem.OpSub, out, Shape{256, 256, 3}, gain, Shape{3}) }},
		{"ApplyMinibatch", 0, func() error {
			return ApplyMinibatch(elem.OpMax, out, img, BatchShape{Dims: Shape{256, 3}, Batch: 256}, gain[:1], BatchShape{Dims: Shape{}, Batch: 1})
		}},
		{"ApplyUnary", 0, func() error { return ApplyUnary(elem.OpNeg, out, Shape{256, 256, 3}, gain, Shape{3}) }},
		{"ApplyTernary", 0, func() error {
			return ApplyTernary(elem.OpFMA, out, img, Shape{256, 256, 3}, gain, Shape{3}, gain[:1], Shape{})
		}},
		{"Select", 0, func() error {
			return Select(out, cond, Shape{3}, img, Shape{256, 256, 3}, gain, Shape{1, 3})
		}},
		{"ReduceSum", 0, func() error { return ReduceSum(out[:256*256], Shape{256, 256}, img, Shape{256, 256, 3}, -1) }},
		{"ApplyView (a transposed input)", 0, func() error {
			return ApplyView(elem.OpAdd, View[float32]{Data: out[:256*3], Shape: Shape{256, 3}, Strides: []int{3, 1}},
				View[float32]{Data: img[:256*3], Shape: Shape{256, 3}, Strides: []int{1, 256}}, View[float32]{Data: gain, Shape: Shape{3}, Strides: []int{1}})
		}},
		{"CopyView (HWC to CHW)", 0, func() error {
			return CopyView(View[float32]{Data: out[:256*3], Shape: Shape{3, 256}, Strides: []int{256, 1}},
				View[float32]{Data: img[:256*3], Shape: Shape{3, 256}, Strides: []int{1, 3}})
		}},
		{"FillView (a column)", 0, func() error {
			return FillView(View[float32]{Data: out[:255*3+1], Shape: Shape{256}, Strides: []int{3}}, 2)
		}},
		{"ApplyUnaryView", 0, func() error {
			return ApplyUnaryView(elem.OpExp, View[float32]{Data: out[:256*3], Shape: Shape{256, 3}, Strides: []int{3, 1}}, View[float32]{Data: gain, Shape: Shape{3}, Strides: []int{1}})
		}},
		{"CompareView", 0, func() error {
			return CompareView(elem.OpLt, View[bool]{Data: mask, Shape: Shape{256, 3}, Strides: []int{1, 256}},
				View[float32]{Data: img[:256*3], Shape: Shape{256, 3}, Strides: []int{3, 1}}, View[float32]{Data: gain, Shape: Shape{3}, Strides: []int{1}})
		}},
		{"SelectView", 0, func() error {
			return SelectView(View[float32]{Data: out[:256*3], Shape: Shape{256, 3}, Strides: []int{3, 1}}, View[bool]{Data: cond, Shape: Shape{3}, Strides: []int{1}},
				View[float32]{Data: img[:256*3], Shape: Shape{256, 3}, Strides: []int{1, 256}}, View[float32]{Data: gain[:1], Shape: Shape{}, Strides: []int{}})
		}},
		{"ConvertView", 0, func() error {
			return ConvertView(View[uint8]{Data: bytes, Shape: Shape{3, 256}, Strides: []int{256, 1}}, View[float32]{Data: img[:256*3], Shape: Shape{3, 256}, Strides: []int{1, 3}})
		}},
		{"View.Validate", 0, func() error {
			return View[float32]{Data: img, Shape: Shape{256, 256, 3}, Strides: []int{768, 3, 1}}.Validate()
		}},
		{"Shape.Validate, Size, CheckLen", 0, func() error {
			_, err := Shape{256, 256, 3}.Size()
			return errors.Join(err, Shape{256, 256, 3}.Validate(), Shape{256, 256, 3}.CheckLen(len(img)))
		}},
		{"BatchShape.Validate, Size, CheckLen", 0, func() error {
			_, err := BatchShape{Dims: Shape{256, 3}, Batch: 256}.Size()
			return errors.Join(err, BatchShape{Dims: Shape{3}, Batch: 2}.Validate(), BatchShape{Dims: Shape{3}, Batch: 2}.CheckLen(6))
		}},
		{"To: its result", 1, func() error { _, err := To(out, gain, Shape{3}, Shape{256, 256, 3}); return err }},
		{"Numpy: its result", 1, func() error { _, err := Numpy(Shape{256, 256, 3}, Shape{3}, Shape{1, 3}); return err }},
		{"InPlace", 1, func() error { return InPlace(Shape{256, 256, 3}, Shape{3}) }},
		{"Minibatch: its result", 1, func() error {
			_, err := Minibatch(BatchShape{Dims: Shape{3}, Batch: 4}, BatchShape{Dims: Shape{3, 1}, Batch: 1})
			return err
		}},
		{"Strides: its result", 1, func() error { _, err := Strides(Shape{3}, Shape{256, 256, 3}); return err }},
		{"NewPlan: the plan, its shapes' copies, its output", 4, func() error {
			_, err := NewPlan(RuleNumpy, Shape{256, 256, 3}, Shape{3})
			return err
		}},
		{"NumpyLayout: its output and strides", 5, func() error {
			_, err := NumpyLayout(Shape{256, 256, 3}, Shape{3})
			return err
		}},
	} {
		require.NoError(t, c.call(), c.name)
		require.Equal(t, c.allocs, testing.AllocsPerRun(10, func() { _ = c.call() }), c.name)
	}
}

func TestRunConcurrently(t *testing.T) {
	p, err := NewPlan(RuleNumpy, S(50, 1, 7), S(9, 1))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(21, 22))
	a, b := testkit.RandomData[float64](rng, 350), testkit.RandomData[float64](rng, 9)
	want, _ := naive(elem.OpMax, a, S(50, 1, 7), b, S(9, 1))
	var wg sync.WaitGroup
	results := make([][]float64, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[g] = make([]float64, len(want))
			for range 50 {
				if err := Run(p, elem.OpMax, results[g], a, b); err != nil {
					panic(err)
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range results {
		testkit.RequireSameBits(t, want, r, "concurrent")
	}
}

func TestMinibatchPlan(t *testing.T) {
	p, err := NewMinibatchPlan(B(3, 2), B(1, 2))
	require.NoError(t, err)
	require.Equal(t, S(3, 2), p.Out())
	require.Equal(t, 6, p.OutLen())
	dst := make([]float32, 6)
	require.NoError(t, Run(p, elem.OpSub, dst, []float32{1, 2, 3, 4, 5, 6}, []float32{1, 10}))
	require.Equal(t, []float32{0, -8, 2, -6, 4, -4}, dst)
	err = Run(p, elem.OpSub, dst, []float32{1, 2, 3}, []float32{1, 10})
	requireErr(t, err, errs(ErrDataLength), "a has 3 elements", "minibatch shape {2}x3")

	_, err = NewMinibatchPlan(B(3, 2), B(2, 2))
	requireErr(t, err, errs(ErrBatch, ErrIncompatible), "different minibatch sizes: 3 and 2")
	_, err = NewMinibatchPlan(B(1, 3), B(1, 1, 3))
	requireErr(t, err, errs(ErrIncompatible))
	_, err = NewMinibatchPlan(B(0, 3), B(1, 3))
	requireErr(t, err, errs(ErrInvalidShape))
	err = ApplyMinibatch(elem.OpAdd, dst, dst, B(2, 3), dst[:3], B(1, 3))
	requireErr(t, err, errs(ErrOverlap), "{3}x1")
}
