package broadcast

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// stridedViews returns views of shape s over new data from pool: the
// transpose of a contiguous array, every other element along each axis,
// and axis 0 reversed, with their names.
func stridedViews[T elem.Number](rng *rand.Rand, pool func(*rand.Rand, int) []testkit.Pool[T], s Shape) map[string]View[T] {
	n, _ := s.Size()
	views := map[string]View[T]{}
	rev := slices.Clone(s)
	slices.Reverse(rev)
	views["transposed"] = ViewOf(pool(rng, n)[0].Data, rev).Transposed()
	double := make(Shape, len(s))
	for i, d := range s {
		double[i] = 2 * d
	}
	m, _ := double.Size()
	strides := contiguous(double)
	for i := range strides {
		strides[i] *= 2
	}
	views["every other"] = View[T]{Data: pool(rng, max(m, 1))[0].Data, Shape: s, Strides: strides}
	if len(s) > 0 && n > 0 {
		st := contiguous(s)
		data := pool(rng, n)[0].Data
		st[0] = -st[0]
		views["axis 0 reversed"] = View[T]{Data: data, Shape: s, Strides: st}
	}
	return views
}

// materialize copies the view into a contiguous array of its shape.
func materialize[T elem.Number](v View[T]) []T {
	origin, err := v.origin(nameView)
	if err != nil {
		panic(err)
	}
	var out []T
	testkit.EachIndex(v.Shape, func(idx []int) { out = append(out, v.Data[origin+testkit.Offset(idx, v.Strides)]) })
	return out
}

func TestReduceView(t *testing.T) {
	var checks []func(*testing.T)
	checks = append(checks, viewChecks(testkit.Pools[float32])...)
	checks = append(checks, viewChecks(testkit.Pools[float64])...)
	checks = append(checks, viewChecks(testkit.IntPools[int32])...)
	runChecks(t, checks)
	a := View[int8]{Data: make([]int8, 4), Shape: S(2, 2), Strides: []int{2, 1}}
	requireErr(t, ReduceView(ReductionMean, make([]int8, 2), S(2), a, 1), []error{ErrOp}, "mean")
	requireErr(t, ReduceView(ReductionSum, a.Data[:2], S(2), a, 1), []error{ErrOverlap})
	requireErr(t, ReduceView(ReductionMax, make([]int8, 2), S(2), View[int8]{Data: make([]int8, 3), Shape: S(2, 2), Strides: []int{2, 1}}, 1), []error{ErrView})
	require.Equal(t, "standard deviation", ReductionStd.String())
}

// viewChecks checks every ReduceView reduction on strided views against
// the contiguous call on the view's copy: the same bits.
func viewChecks[T elem.Number](pool func(*rand.Rand, int) []testkit.Pool[T]) []func(*testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	ops := []Reduction{ReductionSum, ReductionProd, ReductionMax, ReductionMin}
	if kernel.IsFloat[T]() {
		ops = append(ops, ReductionMean, ReductionVar, ReductionStd, ReductionLogSumExp)
	}
	cases := reduceCases(rng)
	if testing.Short() {
		cases = every(cases, 4)
	}
	var checks []func(*testing.T)
	for _, c := range cases {
		if n, _ := c.shape.Size(); n > 20000 && testing.Short() {
			continue
		}
		dstShape := dstShapes(c.shape, c.reduced())[1]
		m, _ := dstShape.Size()
		for name, v := range stridedViews(rng, pool, c.shape) {
			copied := materialize(v)
			for _, op := range ops {
				want := make([]T, m)
				wantErr := contiguousReduction(op, want, dstShape, copied, c.shape, c.axes)
				what := fmt.Sprintf("%s of %T %v axes %v, %s", op, T(0), c.shape, c.axes, name)
				checks = append(checks, func(t *testing.T) {
					got := make([]T, m)
					err := ReduceView(op, got, dstShape, v, c.axes...)
					if wantErr != nil {
						require.Error(t, err, what)
						return
					}
					require.NoError(t, err, what)
					testkit.RequireSameBits(t, want, got, what)
				})
			}
		}
	}
	return checks
}

// contiguousReduction runs the contiguous call that op names.
func contiguousReduction[T elem.Number](op Reduction, dst []T, dstShape Shape, a []T, aShape Shape, axes []int) error {
	switch op {
	case ReductionSum:
		return ReduceSum(dst, dstShape, a, aShape, axes...)
	case ReductionProd:
		return ReduceProd(dst, dstShape, a, aShape, axes...)
	case ReductionMax:
		return ReduceMax(dst, dstShape, a, aShape, axes...)
	case ReductionMin:
		return ReduceMin(dst, dstShape, a, aShape, axes...)
	}
	switch d := any(dst).(type) {
	case []float32:
		return floatContiguous(op, d, dstShape, any(a).([]float32), aShape, axes)
	case []float64:
		return floatContiguous(op, d, dstShape, any(a).([]float64), aShape, axes)
	}
	panic("not a float type")
}

func floatContiguous[F elem.Float](op Reduction, dst []F, dstShape Shape, a []F, aShape Shape, axes []int) error {
	switch op {
	case ReductionMean:
		return ReduceMean(dst, dstShape, a, aShape, axes...)
	case ReductionVar:
		return ReduceVar(dst, dstShape, a, aShape, axes...)
	case ReductionStd:
		return ReduceStd(dst, dstShape, a, aShape, axes...)
	}
	return LogSumExp(dst, dstShape, a, aShape, axes...)
}
