package broadcast

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// refReduceSum is ReduceSum by its definition: each output element is
// elem.Sum of its values gathered in index order.
func refReduceSum[T elem.Number](a []T, aShape Shape, reduced []bool) []T {
	var outLen = 1
	for i, d := range aShape {
		if !reduced[i] {
			outLen *= d
		}
	}
	values := make([][]T, outLen)
	idx := make([]int, len(aShape))
	for _, x := range a {
		o := 0
		for i, d := range aShape {
			if !reduced[i] {
				o = o*d + idx[i]
			}
		}
		values[o] = append(values[o], x)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < aShape[i] {
				break
			}
			idx[i] = 0
		}
	}
	out := make([]T, outLen)
	for o, v := range values {
		out[o] = elem.Sum(v)
	}
	return out
}

// reduceCase is one reduction: a's shape, the axes, and the reduced axes
// they name.
type reduceCase struct {
	shape Shape
	axes  []int
}

func (c reduceCase) reduced() []bool {
	r := make([]bool, len(c.shape))
	for _, ax := range c.axes {
		r[(ax+len(c.shape))%max(1, len(c.shape))] = true
	}
	if len(c.axes) == 0 {
		for i := range r {
			r[i] = true
		}
	}
	return r
}

// reduceCases covers row sums and column sums of every kind of width
// (around the vector widths, the accumulator rows and the column tile),
// middle and mixed axes, size-1 and size-0 axes, rank 0, and random
// shapes.
func reduceCases(rng *rand.Rand) []reduceCase {
	cs := []reduceCase{
		{S(), nil}, {S(5), nil}, {S(1, 1), []int{0}}, {S(3, 1, 4), []int{1}}, {S(3, 0, 4), []int{1}}, {S(3, 0, 4), []int{0}},
		{S(2, 3, 4, 5), []int{1, 3}}, {S(2, 3, 4, 5), []int{0, 2}}, {S(2, 3, 4, 5), []int{-1, -4}}, {S(2, 3, 4, 5), nil},
		{S(7, 1030), []int{0}}, {S(70, 1030), []int{0}}, {S(3, 33, 2100), []int{1}}, {S(1030, 3), []int{0}},
		{S(2, 3, 9000), []int{2}}, // outputs of more values than a chunk (see inChunks)
	}
	for _, n := range []int{1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 300} {
		cs = append(cs, reduceCase{S(37, n), []int{1}}, reduceCase{S(n, 37), []int{0}}, reduceCase{S(n, 5, 9), []int{0, 2}})
	}
	for range 60 {
		rank := 1 + rng.IntN(4)
		var c reduceCase
		for i := range rank {
			c.shape = append(c.shape, 1+rng.IntN(12))
			if rng.IntN(2) == 0 {
				c.axes = append(c.axes, i-rank*rng.IntN(2))
			}
		}
		cs = append(cs, c)
	}
	return cs
}

// shortReduceCases covers the sums of at most 32 values (and 33, the
// first beyond): rows of every length 1 to 33 (with -short, the lengths
// around the powers of two the tree splits at), as the innermost axis and
// as a middle axis over inner runs on both sides of shortColumns, for
// outer counts below and beyond a block of outputs (shortBlock, and
// splitBlock for some lengths), and
// values spread over two summed axes.
func shortReduceCases(*rand.Rand) []reduceCase {
	var cs []reduceCase
	for n := 1; n <= 33; n++ {
		if testing.Short() && !slices.Contains([]int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33}, n) {
			continue
		}
		outers := []int{1, 5, shortBlock + 1}
		if slices.Contains([]int{2, 3, 4, 7, 32}, n) {
			outers = append(outers, splitBlock+1)
		}
		for _, outer := range outers {
			cs = append(cs, reduceCase{S(outer, n), []int{1}})
		}
		for _, inner := range []int{2, 3, 31, 32, 33} {
			cs = append(cs, reduceCase{S(7, n, inner), []int{1}})
		}
		cs = append(cs, reduceCase{S(n, 40), []int{0}}, reduceCase{S(n, 2, 3), []int{0, 2}}, reduceCase{S(2, 3, n, 40), []int{0, 2}})
	}
	return append(cs, reduceCase{S(300, 3, 2), []int{1}}, reduceCase{S(3, 1500), []int{0}}, reduceCase{S(700, 1), []int{1}}, reduceCase{S(1, 700), []int{0}})
}

func TestReduceSum(t *testing.T) {
	eachReduceType(t, reduceCases)
}

func TestReduceSumShort(t *testing.T) {
	eachReduceType(t, shortReduceCases)
}

// eachReduceType checks the reductions of cases with every implementation
// on float and integer types.
func eachReduceType(t *testing.T, cases func(*rand.Rand) []reduceCase) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testReduceSum(testkit.Pools[float32], cases))
		t.Run("float64", testReduceSum(testkit.Pools[float64], cases))
		t.Run("int8", testReduceSum(testkit.IntPools[int8], cases))
		t.Run("uint16", testReduceSum(testkit.IntPools[uint16], cases))
		t.Run("int32", testReduceSum(testkit.IntPools[int32], cases))
		t.Run("uint64", testReduceSum(testkit.IntPools[uint64], cases))
	})
}

// testReduceSum checks ReduceSum against its definition on the data of
// pools (the integer sums wrap around, as elem.Sum's).
func testReduceSum[T elem.Number](pools func(*rand.Rand, int) []testkit.Pool[T], cases func(*rand.Rand) []reduceCase) func(t *testing.T) {
	return func(t *testing.T) { testReduceSumOn(t, pools, cases) }
}

func testReduceSumOn[T elem.Number](t *testing.T, pools func(*rand.Rand, int) []testkit.Pool[T], cases func(*rand.Rand) []reduceCase) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, c := range cases(rng) {
		n, err := c.shape.Size()
		require.NoError(t, err)
		for _, pool := range pools(rng, n) {
			what := fmt.Sprintf("%T %v axes %v %s", T(0), c.shape, c.axes, pool.Name)
			reduced := c.reduced()
			want := refReduceSum(pool.Data, c.shape, reduced)
			var keep, squeeze Shape
			for i, d := range c.shape {
				if reduced[i] {
					keep = append(keep, 1)
				} else {
					keep, squeeze = append(keep, d), append(squeeze, d)
				}
			}
			for _, dstShape := range []Shape{keep, squeeze} {
				dst := make([]T, len(want))
				require.NoError(t, ReduceSum(dst, dstShape, pool.Data, c.shape, c.axes...), what)
				testkit.RequireSameBits(t, want, dst, fmt.Sprintf("%s into %v", what, dstShape))
			}
		}
	}
}

// TestReduceSumDeepNest checks nests of more groups than a reduction
// holds without an allocation (nestRoom), alternating kept and summed.
func TestReduceSumDeepNest(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	shape := make(Shape, 2*nestRoom+2)
	var axes []int
	var dstShape Shape
	for i := range shape {
		shape[i] = 2
		if i%2 == 0 {
			axes = append(axes, i)
		} else {
			dstShape = append(dstShape, 2)
		}
	}
	c := reduceCase{shape, axes}
	n, err := shape.Size()
	require.NoError(t, err)
	a := testkit.RandomData[float32](rng, n)
	want := refReduceSum(a, shape, c.reduced())
	dst := make([]float32, len(want))
	require.NoError(t, ReduceSum(dst, dstShape, a, shape, axes...))
	testkit.RequireSameBits(t, want, dst, fmt.Sprintf("%v axes %v", shape, axes))
}

// TestReduceSumAllocatesNothing checks every kind of reduction, the axis
// passed as a variadic argument: a call allocates nothing.
func TestReduceSumAllocatesNothing(t *testing.T) {
	if raceBuild {
		t.Skip("under -race the kernels' range reports move accumulators to the heap")
	}
	a, dst := make([]float64, 6000), make([]float64, 2000)
	shapes := []struct {
		name          string
		aShape, shape Shape
		axis          int
	}{
		{"rows of 3", S(2000, 3), S(2000), 1},
		{"rows of 100", S(60, 100), S(60), 1},
		{"middle axis of 3, runs of 2", S(1000, 3, 2), S(1000, 2), 1},
		{"middle axis of 3, runs of 40", S(50, 3, 40), S(50, 40), 1},
		{"columns of 2000", S(2000, 3), S(3), 0},
	}
	for _, c := range shapes {
		size, err := c.aShape.Size()
		require.NoError(t, err)
		n, err := c.shape.Size()
		require.NoError(t, err)
		call := func() error { return ReduceSum(dst[:n], c.shape, a[:size], c.aShape, c.axis) }
		require.NoError(t, call(), c.name)
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = call() }), c.name)
	}
}

func TestReduceSumErrors(t *testing.T) {
	a := make([]float32, 24)
	tests := []struct {
		name     string
		dst      []float32
		dstShape Shape
		a        []float32
		aShape   Shape
		axes     []int
		kinds    []error
		mentions []string
	}{
		{"axis out of range", make([]float32, 6), S(2, 3), a, S(2, 3, 4), []int{3}, errs(ErrAxis), []string{"axis 3", "(2,3,4)"}},
		{"negative axis out of range", make([]float32, 6), S(2, 3), a, S(2, 3, 4), []int{-4}, errs(ErrAxis), []string{"axis -4"}},
		{"axis twice", make([]float32, 6), S(2, 3), a, S(2, 3, 4), []int{2, -1}, errs(ErrAxis), []string{"twice"}},
		{"wrong dst shape", make([]float32, 6), S(3, 2), a, S(2, 3, 4), []int{2}, errs(ErrIncompatible), []string{"(3,2)", "(2,3,1)", "(2,3)"}},
		{"dst keeps the summed axis", make([]float32, 24), S(2, 3, 4), a, S(2, 3, 4), []int{2}, errs(ErrIncompatible), []string{"(2,3,4)", "(2,3,1)"}},
		{"dst of another rank", make([]float32, 6), S(2, 3, 1, 1), a, S(2, 3, 4), []int{2}, errs(ErrIncompatible), []string{"(2,3,1,1)"}},
		{"a's length", make([]float32, 6), S(2, 3), a[:23], S(2, 3, 4), []int{2}, errs(ErrDataLength), []string{"23"}},
		{"dst's length", make([]float32, 5), S(2, 3), a, S(2, 3, 4), []int{2}, errs(ErrDataLength), []string{"dst", "5"}},
		{"negative dim", make([]float32, 6), S(2, 3), a, S(2, -3, 4), []int{2}, errs(ErrInvalidShape, ErrNegativeDim), []string{"-3"}},
		{"overlap", a[18:], S(2, 3), a, S(2, 3, 4), []int{2}, errs(ErrOverlap), []string{"shares memory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.dst {
				tt.dst[i] = float32(math.Pi)
			}
			before := append([]float32(nil), tt.dst...)
			err := ReduceSum(tt.dst, tt.dstShape, tt.a, tt.aShape, tt.axes...)
			requireErr(t, err, tt.kinds, tt.mentions...)
			require.Equal(t, before, tt.dst, "nothing written")
		})
	}
}
