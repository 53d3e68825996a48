package broadcast

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// FuzzReduce builds a shape (rank 0..6, sizes 0..5 and a few of 40; at
// most 16384 elements) and a
// set of axes from fuzz bytes, runs a fuzzer-chosen reduction (max, min,
// product, mean, variance, log-sum-exp, argmax, softmax, cumulative sum)
// under a fuzzer-chosen implementation on float32, float64 or int16 data
// with special values, and compares it bit for bit with its definition on
// the values gathered in index order, and the view form on the
// transposed data with the contiguous call.
func FuzzReduce(f *testing.F) {
	f.Add([]byte{2, 3, 4}, uint8(1), uint8(0), uint8(0), uint8(0))
	f.Add([]byte{3, 2, 0, 5}, uint8(5), uint8(3), uint8(1), uint8(1))
	f.Add([]byte{1, 250}, uint8(1), uint8(7), uint8(2), uint8(0))
	f.Add([]byte{0}, uint8(0), uint8(2), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, spec []byte, axesMask, kind, implByte, typ uint8) {
		if len(spec) == 0 {
			return
		}
		rank := int(spec[0]) % 7
		shape := Shape{}
		for i := range rank {
			d := 1
			if 1+i < len(spec) {
				d = int(spec[1+i]) % 6
				if spec[1+i] >= 250 {
					d = 40
				}
			}
			shape = append(shape, d)
		}
		if n, err := shape.Size(); err != nil || n > 1<<14 {
			return // big enough to prove nothing more, small enough to stay in memory
		}
		var axes []int
		for i := range rank {
			if axesMask>>i&1 != 0 {
				axes = append(axes, i)
			}
		}
		fuzzSetup(t, implByte, 0)
		switch typ % 3 {
		case 0:
			fuzzReduceCase[float32](t, shape, axes, kind)
		case 1:
			fuzzReduceCase[float64](t, shape, axes, kind)
		default:
			fuzzReduceCase[int16](t, shape, axes, kind)
		}
	})
}

func fuzzReduceCase[T elem.Number](t *testing.T, shape Shape, axes []int, kind uint8) {
	n, _ := shape.Size()
	a := fuzzValues[T](n, 3)
	c := reduceCase{shape, axes}
	reduced := c.reduced()
	dstShape := dstShapes(shape, reduced)[0]
	m, _ := dstShape.Size()
	values := gatherOutputs(a, refIndexes(shape, reduced))
	empty := false
	for _, v := range values {
		empty = empty || len(v) == 0
	}
	got := make([]T, m)
	check := func(err error, ref func([]T) T) {
		if empty && ref == nil {
			requireErr(t, err, []error{ErrEmpty})
			return
		}
		require.NoError(t, err)
		testkit.RequireSameBits(t, applyEach(values, ref), got, "fuzz reduction")
	}
	switch kind % 9 {
	case 0:
		check(ReduceMax(got, dstShape, a, shape, axes...), nilIf(empty, func(v []T) T { return refExtreme(v, true) }))
	case 1:
		check(ReduceMin(got, dstShape, a, shape, axes...), nilIf(empty, func(v []T) T { return refExtreme(v, false) }))
	case 2:
		check(ReduceProd(got, dstShape, a, shape, axes...), refProd[T])
	case 3, 4:
		ddof := int(kind%9) - 4 // -1: the mean
		switch x := any(a).(type) {
		case []float32:
			fuzzMoment(t, x, shape, axes, dstShape, gatherFloats[float32](values), ddof)
		case []float64:
			fuzzMoment(t, x, shape, axes, dstShape, gatherFloats[float64](values), ddof)
		}
	case 5:
		fuzzFloat(t, a, shape, axes, got, dstShape, values)
	case 6, 7, 8:
		fuzzAlong(t, a, shape, kind%9)
	}
	// The view of the transposed data gives the same bits as its copy.
	if kind%9 < 3 && !empty {
		rev := slices.Clone(shape)
		slices.Reverse(rev)
		v := ViewOf(a, rev).Transposed()
		copied := materialize(v)
		want := make([]T, m)
		op := []Reduction{ReductionMax, ReductionMin, ReductionProd}[kind%9]
		require.NoError(t, contiguousReduction(op, want, dstShape, copied, shape, axes))
		require.NoError(t, ReduceView(op, got, dstShape, v, axes...))
		testkit.RequireSameBits(t, want, got, "fuzz view")
	}
}

// fuzzMoment checks ReduceMean (ddof -1) or ReduceVar (ddof 0).
func fuzzMoment[F elem.Float](t *testing.T, a []F, shape Shape, axes []int, dstShape Shape, values [][]F, ddof int) {
	got := make([]F, len(values))
	if ddof < 0 {
		require.NoError(t, ReduceMean(got, dstShape, a, shape, axes...))
	} else {
		require.NoError(t, ReduceVar(got, dstShape, a, shape, axes...))
	}
	testkit.RequireSameBits(t, applyEach(values, func(v []F) F { return refMoment[F](v, ddof) }), got, "fuzz moment")
}

// nilIf returns nil when empty is set (the reduction has no identity),
// else ref.
func nilIf[T any](empty bool, ref func([]T) T) func([]T) T {
	if empty {
		return nil
	}
	return ref
}

// fuzzFloat checks LogSumExp on float data.
func fuzzFloat[T elem.Number](t *testing.T, a []T, shape Shape, axes []int, got []T, dstShape Shape, values [][]T) {
	switch x := any(a).(type) {
	case []float32:
		require.NoError(t, LogSumExp(any(got).([]float32), dstShape, x, shape, axes...))
		testkit.RequireSameBits(t, applyEach(gatherFloats[float32](values), func(v []float32) float32 { _, _, l := refSoftmax(v); return l }), any(got).([]float32), "fuzz log-sum-exp")
	case []float64:
		require.NoError(t, LogSumExp(any(got).([]float64), dstShape, x, shape, axes...))
		testkit.RequireSameBits(t, applyEach(gatherFloats[float64](values), func(v []float64) float64 { _, _, l := refSoftmax(v); return l }), any(got).([]float64), "fuzz log-sum-exp")
	}
}

func gatherFloats[F elem.Float, T any](values [][]T) [][]F { return any(values).([][]F) }

// fuzzAlong checks ArgMax (kind 6), Softmax (7, floats) and CumSum (8)
// along the first axis.
func fuzzAlong[T elem.Number](t *testing.T, a []T, shape Shape, kind uint8) {
	if len(shape) == 0 {
		return
	}
	r := make([]bool, len(shape))
	r[0] = true
	idx := refIndexes(shape, r)
	values := gatherOutputs(a, idx)
	switch kind {
	case 6:
		got := make([]int, len(idx))
		err := ReduceArgMax(got, dstShapes(shape, r)[1], a, shape, 0)
		if shape[0] == 0 && len(idx) > 0 {
			requireErr(t, err, []error{ErrEmpty})
			return
		}
		require.NoError(t, err)
		require.Equal(t, applyEach(values, func(v []T) int {
			if len(v) == 0 {
				return 0
			}
			return elem.ArgMax(v)
		}), got)
	case 7:
		if x, ok := any(a).([]float64); ok {
			got := make([]float64, len(a))
			require.NoError(t, Softmax(got, x, shape, 0))
			want := make([]float64, len(a))
			for o, v := range gatherFloats[float64](values) {
				s, _, _ := refSoftmax(v)
				for i, at := range idx[o] {
					want[at] = s[i]
				}
			}
			testkit.RequireSameBits(t, want, got, "fuzz softmax")
		}
	case 8:
		got := make([]T, len(a))
		require.NoError(t, CumSum(got, a, shape, 0))
		want := make([]T, len(a))
		for o, v := range values {
			s := make([]T, len(v))
			elem.CumSum(s, v)
			for i, at := range idx[o] {
				want[at] = s[i]
			}
		}
		testkit.RequireSameBits(t, want, got, "fuzz cumsum")
	}
}
