package broadcast

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/coalesce"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// visits lists, in loop order, the offset of every operand at every index
// of a nest: the reference that coalescing must preserve.
func visits(size []int, stride [][]int) [][]int {
	var out [][]int
	testkit.EachIndex(size, func(idx []int) {
		at := make([]int, len(stride))
		for k, st := range stride {
			at[k] = testkit.Offset(idx, st)
		}
		out = append(out, at)
	})
	return out
}

func TestCoalesce(t *testing.T) {
	cases := []struct {
		name       string
		size       []int
		stride     [][]int
		wantSize   []int
		wantStride [][]int
	}{
		{"contiguous merges to one axis", []int{2, 3, 4}, [][]int{{12, 4, 1}, {12, 4, 1}}, []int{24}, [][]int{{1}, {1}}},
		{"row broadcast keeps two", []int{5, 3}, [][]int{{3, 1}, {3, 1}, {0, 1}}, []int{5, 3}, [][]int{{3, 1}, {3, 1}, {0, 1}}},
		{"size-1 axes dropped", []int{1, 5, 1, 3, 1}, [][]int{{15, 3, 3, 1, 1}, {0, 3, 0, 1, 0}}, []int{15}, [][]int{{1}, {1}}},
		{"broadcast axes merge", []int{2, 3, 4}, [][]int{{12, 4, 1}, {0, 0, 1}}, []int{6, 4}, [][]int{{4, 1}, {0, 1}}},
		{"zero strides merge with zero", []int{4, 5}, [][]int{{5, 1}, {0, 0}}, []int{20}, [][]int{{1}, {0}}},
		{"negative strides merge", []int{2, 3}, [][]int{{-3, -1}, {3, 1}}, []int{6}, [][]int{{-1}, {1}}},
		{"negative outer does not continue", []int{2, 3}, [][]int{{-3, 1}, {3, 1}}, []int{2, 3}, [][]int{{-3, 1}, {3, 1}}},
		{"strided rows (a view)", []int{4, 8}, [][]int{{8, 1}, {10, 1}}, []int{4, 8}, [][]int{{8, 1}, {10, 1}}},
		{"four operands, the last blocks", []int{3, 2}, [][]int{{2, 1}, {2, 1}, {2, 1}, {0, 1}}, []int{3, 2}, [][]int{{2, 1}, {2, 1}, {2, 1}, {0, 1}}},
		{"zero size", []int{3, 0, 2}, [][]int{{0, 2, 1}, {2, 0, 1}}, []int{0}, [][]int{{0}, {0}}},
		{"scalar", []int{1, 1}, [][]int{{1, 1}, {0, 0}}, []int{}, [][]int{{}, {}}},
		{"rank 0", []int{}, [][]int{{}, {}}, []int{}, [][]int{{}, {}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			size := slices.Clone(c.size)
			stride := make([][]int, len(c.stride))
			for k := range stride {
				stride[k] = slices.Clone(c.stride[k])
			}
			r := coalesce.Nest(size, stride)
			require.Equal(t, c.wantSize, size[:r])
			for k := range stride {
				require.Equal(t, c.wantStride[k], stride[k][:r], "operand %d", k)
			}
		})
	}
}

// TestCoalesceRandom checks on random nests of 1..4 operands with strides of
// any sign that coalescing visits the same offsets in the same order.
func TestCoalesceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for iter := range 3000 {
		rank, ops := rng.IntN(6), 1+rng.IntN(maxOperands)
		size := make([]int, rank)
		stride := make([][]int, ops)
		for d := range size {
			size[d] = []int{1, 1, 2, 3, 4, 0}[rng.IntN(6)]
			if size[d] == 0 && rng.IntN(8) != 0 {
				size[d] = 2
			}
		}
		for k := range stride {
			stride[k] = make([]int, rank)
			p := 1 - 2*rng.IntN(2)
			for d := rank - 1; d >= 0; d-- {
				switch rng.IntN(4) {
				case 0:
					stride[k][d] = 0
				case 1:
					stride[k][d] = rng.IntN(13) - 6
				default: // contiguous (possibly reversed), so that axes merge
					stride[k][d] = p
					p *= max(size[d], 1)
				}
			}
		}
		want := visits(size, stride)
		what := fmt.Sprintf("iteration %d: size %v strides %v", iter, size, stride)
		r := coalesce.Nest(size, stride)
		for k := range stride {
			stride[k] = stride[k][:r]
		}
		require.Equal(t, want, visits(size[:r], stride), what)
		for _, n := range size[:r] {
			require.True(t, n != 1, "%s: size 1 kept", what)
		}
	}
}

// TestStrategies checks the strategy each plan is given, per element size.
func TestStrategies(t *testing.T) {
	for _, c := range []struct {
		a, b     Shape
		f32, f64 strategy
	}{
		{S(16000), S(), runFlat, runFlat},
		{S(16000), S(16000), runFlat, runFlat},
		{S(2, 3), S(3), runTiny, runTiny},
		{S(2, 1, 2, 1), S(1, 2, 1, 2), runTiny, runTiny},
		{S(4096, 3), S(3), runTile, runTile},
		{S(3), S(4096, 3), runTile, runTile},
		{S(1000, 16), S(16), runTile, run2D}, // 64 bytes of float32, 128 of float64
		{S(1000, 32), S(32), run2D, run2D},
		{S(1024, 1024), S(1024), run2D, run2D},
		{S(64, 1024), S(64, 1), run2D, run2D},
		{S(1024, 1), S(1, 1024), run2D, run2D},
		{S(8, 1, 64, 16), S(1, 16, 1, 16), runTile, run2D}, // an odometer over tiled blocks
		{S(8, 1, 64, 32), S(1, 16, 1, 32), run2D, run2D},   // G4: rows of 128 bytes
		{S(64, 1, 256), S(128, 1), run2D, run2D},
		{S(0, 3), S(3), runEmpty, runEmpty},
	} {
		p, err := NewPlan(RuleNumpy, c.a, c.b)
		require.NoError(t, err)
		got := [2]strategy{p.strategy[sizeIndex[float32]()], p.strategy[sizeIndex[float64]()]}
		require.Equal(t, [2]strategy{c.f32, c.f64}, got, "%v and %v", c.a, c.b)
	}
	p, err := NewBidirectionalPlan(S(3, 1), S(2, 1, 6))
	require.NoError(t, err)
	require.Equal(t, [elemSizes]strategy{runCopy, runCopy, runCopy, runCopy}, p.strategy)
	require.Equal(t, "tile", runTile.String())
}

func TestNilAndZeroPlans(t *testing.T) {
	var zero Plan
	require.Nil(t, zero.Out(), "the zero Plan has no output shape")
	require.Zero(t, zero.OutLen())
	_, ok := zero.OutBatch()
	require.False(t, ok)
	var none *Plan
	require.Nil(t, none.Out(), "a nil *Plan has no output shape")
	require.Zero(t, none.OutLen())
	_, ok = none.OutBatch()
	require.False(t, ok)
	dst, a, b := make([]float32, 4), make([]float32, 4), make([]float32, 4)
	copyPlan, err := NewBidirectionalPlan(S(4), S(4))
	require.NoError(t, err)
	opPlan, err := NewPlan(RuleNumpy, S(4), S(4))
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		run  func() error
		says string
	}{
		{"Run nil", func() error { return Run(nil, elem.OpAdd, dst, a, b) }, "the plan is nil"},
		{"RunParallel nil", func() error { return RunParallel(nil, 2, elem.OpAdd, dst, a, b) }, "the plan is nil"},
		{"RunInPlace nil", func() error { return RunInPlace(nil, elem.OpAdd, a, b) }, "the plan is nil"},
		{"Copy nil", func() error { return Copy(nil, dst, a) }, "the plan is nil"},
		{"Run zero", func() error { return Run(&zero, elem.OpAdd, dst, a, b) }, "the zero Plan"},
		{"RunParallel zero", func() error { return RunParallel(&zero, 2, elem.OpAdd, dst, a, b) }, "the zero Plan"},
		{"CopyParallel zero", func() error { return CopyParallel(&zero, 2, dst, a) }, "the zero Plan"},
		{"Run copy plan", func() error { return Run(copyPlan, elem.OpAdd, dst, a, b) }, "run it with Copy"},
		{"Copy op plan", func() error { return Copy(opPlan, dst, a) }, "run it with Run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			requireCaseErr(t, c.run(), errs(ErrPlan), "", c.says)
		})
	}
}

// TestEveryRule runs the one-shot call and the plan of every rule against
// the naive loop over the rule's layout.
func TestEveryRule(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(33, 34))
		for _, c := range []struct {
			rule Rule
			a, b Shape
		}{
			{RuleNone, S(3, 40), S(3, 40)},
			{RuleNone, S(), S()},
			{RulePDPD(1), S(2, 3, 4, 5), S(3, 4)},
			{RulePDPD(-1), S(2, 3, 4, 5), S(4, 5)},
			{RulePDPD(0), S(2, 3, 4, 5), S(1, 3)},
			{RulePDPD(1), S(2, 3, 4, 5), S(3, 1)},
			{RuleNumpy, S(6, 5), S(2, 1, 5)},
		} {
			l, err := c.rule.Layout(c.a, c.b)
			require.NoError(t, err)
			na, _ := c.a.Size()
			nb, _ := c.b.Size()
			n, _ := l.Out.Size()
			a, b := testkit.RandomData[float64](rng, na), testkit.RandomData[float64](rng, nb)
			for _, op := range elem.Ops() {
				what := fmt.Sprintf("%v %s %v under %v", c.a, op, c.b, c.rule)
				want := make([]float64, n)
				testkit.Naive(kernel.Op(op), l.Out, want, l.OutStrides, a, l.Strides[0], b, l.Strides[1])
				got := make([]float64, n)
				require.NoError(t, ApplyRule(c.rule, op, got, a, c.a, b, c.b), what)
				testkit.RequireSameBits(t, want, got, what)
				p, err := NewPlan(c.rule, c.a, c.b)
				require.NoError(t, err)
				require.Equal(t, l.Out, p.Out())
				clear(got)
				require.NoError(t, RunParallel(p, 2, op, got, a, b), what)
				testkit.RequireSameBits(t, want, got, what+" (plan)")
			}
		}
	})
	_, err := NewPlan(RuleNone, S(3), S(1, 3))
	requireErr(t, err, errs(ErrIncompatible, ErrRank))
	err = ApplyRule(RulePDPD(-2), elem.OpAdd, make([]float32, 6), make([]float32, 6), S(2, 3), make([]float32, 3), S(3))
	requireErr(t, err, errs(ErrAxis))
}

func TestBidirectionalPlan(t *testing.T) {
	prev := parallelGrain
	parallelGrain = 5
	defer func() { parallelGrain = prev }()
	for _, c := range []struct{ in, target Shape }{
		{S(5), S(1)}, {S(3, 1), S(3, 4)}, {S(3, 1), S(2, 1, 6)}, {S(3, 4), S()}, {S(1, 0), S(4, 1, 1)}, {S(40, 1), S(40, 33)},
	} {
		p, err := NewBidirectionalPlan(c.in, c.target)
		require.NoError(t, err)
		want, err := Bidirectional(c.in, c.target)
		require.NoError(t, err)
		require.Equal(t, want, p.Out())
		n, _ := c.in.Size()
		in := testkit.RandomData[float32](rand.New(rand.NewPCG(35, 36)), n)
		viaTo := make([]float32, p.OutLen())
		_, err = To(viaTo, in, c.in, c.target)
		require.NoError(t, err)
		for _, workers := range []int{1, 3} {
			got := make([]float32, p.OutLen())
			require.NoError(t, CopyParallel(p, workers, got, in))
			testkit.RequireSameBits(t, viaTo, got, fmt.Sprintf("%v to %v, %d workers", c.in, c.target, workers))
		}
		got := make([]float32, p.OutLen())
		require.NoError(t, Copy(p, got, in))
		testkit.RequireSameBits(t, viaTo, got, fmt.Sprintf("%v to %v", c.in, c.target))
	}
	p, err := NewBidirectionalPlan(S(3), S(2, 3))
	require.NoError(t, err)
	buf := make([]float32, 9)
	requireCaseErr(t, Copy(p, buf[:6], buf[3:6]), errs(ErrOverlap), "", "input shape (3)")
	requireCaseErr(t, Copy(p, buf[:5], buf[6:9]), errs(ErrDataLength), "", "dst has 5 elements", "(2,3)")
	_, err = NewBidirectionalPlan(S(3), S(2))
	requireErr(t, err, errs(ErrIncompatible), "input", "target")
}

func TestRunInPlace(t *testing.T) {
	p, err := NewInPlacePlan(S(4, 33), S(4, 1))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(37, 38))
	a, b := testkit.RandomData[float32](rng, 4*33), testkit.RandomData[float32](rng, 4)
	want, _ := naive(elem.OpDiv, a, S(4, 33), b, S(4, 1))
	got := slices.Clone(a)
	require.NoError(t, RunInPlace(p, elem.OpDiv, got, b))
	testkit.RequireSameBits(t, want, got, "RunInPlace")
	got = slices.Clone(a)
	require.NoError(t, RunInPlaceParallel(p, 2, elem.OpDiv, got, b))
	testkit.RequireSameBits(t, want, got, "RunInPlaceParallel")
	requireCaseErr(t, RunInPlace(p, elem.OpDiv, got, got[:4]), errs(ErrOverlap), "", "b shape (4,1)")
	_, err = NewInPlacePlan(S(0, 1), S(0))
	requireCaseErr(t, err, errs(ErrInPlace), "", "(0,1)")
}

func TestOutBatch(t *testing.T) {
	p, err := NewMinibatchPlan(B(3, 2), B(1, 2))
	require.NoError(t, err)
	out, ok := p.OutBatch()
	require.True(t, ok)
	require.Equal(t, B(3, 2), out)
	q, err := NewPlan(RuleNumpy, S(3), S(3))
	require.NoError(t, err)
	_, ok = q.OutBatch()
	require.False(t, ok)
}

// TestShortRowsDoNotStream checks the plans' store mode: past the streaming
// threshold, flat runs and tiled rows stream, and so do 2-D runs whose rows
// are whole cache lines or long, but not rows that end inside a line, whose
// streaming stores the CPU writes as parts of lines (rows of 17 float32
// against a column took 46 ms a run with AVX2's streaming stores, 2.5 ms
// without).
func TestShortRowsDoNotStream(t *testing.T) {
	saved := kernel.Save()
	defer kernel.Restore(saved)
	kernel.SetStreamMinBytes(0)
	const f32 = 2 // p.stream's index of 4-byte elements
	for _, c := range []struct {
		a, b   Shape
		stream bool
	}{
		{Shape{1000, 17}, Shape{1000, 1}, false},
		{Shape{1000, 33}, Shape{1000, 1}, false},
		{Shape{1000, 16}, Shape{1000, 1}, true},  // whole lines
		{Shape{10, 600}, Shape{10, 1}, true},     // 2400 bytes a row
		{Shape{1000, 3}, Shape{3}, true},         // tiled
		{Shape{17000}, Shape{1}, true},           // flat
		{Shape{1000, 17}, Shape{1000, 17}, true}, // coalesced: flat
	} {
		p, err := NewPlan(RuleNumpy, c.a, c.b)
		require.NoError(t, err)
		require.Equal(t, kernel.HasStreaming && c.stream, p.stream[f32], "%v op %v", c.a, c.b)
	}
}
