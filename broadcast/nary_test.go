package broadcast

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// callCase is one N-ary call's broadcast: the output shape and each input's.
type callCase struct {
	out    Shape
	inputs []Shape
}

// callCases are fixed forms (rows, columns, scalars, every input repeating
// along a row, rank 0, empty) and random ones: each input a suffix of the
// output's dims with some of them 1.
func callCases(rng *rand.Rand, inputs int) []callCase {
	all := func(s Shape) []Shape {
		out := make([]Shape, inputs)
		for i := range out {
			out[i] = s
		}
		return out
	}
	cs := []callCase{
		{S(), all(S())}, {S(0, 3), all(S(0, 3))}, {S(7), all(S(7))}, {S(5, 33), all(S(5, 33))},
		{S(4, 9), append([]Shape{S(4, 1)}, all(S(1))[1:]...)},          // every input one value per row
		{S(3, 4, 17), append([]Shape{S(17)}, all(S(3, 4, 17))[1:]...)}, // a row
		{S(6, 40), append([]Shape{S(6, 1)}, all(S(40))[1:]...)},        // a column against rows
	}
	for range 80 {
		rank := rng.IntN(5)
		out := make(Shape, rank)
		for i := range out {
			out[i] = 1 + rng.IntN(9)
		}
		c := callCase{out: out}
		for range inputs {
			in := append(Shape{}, out[rng.IntN(rank+1):]...)
			for i := range in {
				if rng.IntN(3) == 0 {
					in[i] = 1
				}
			}
			c.inputs = append(c.inputs, in)
		}
		cs = append(cs, c)
	}
	return cs
}

// naryRef computes out element by element: each input element found through
// its strides over out, and the op run by f on one-element slices.
func naryRef(t *testing.T, c callCase, f func(o int, at []int)) {
	strides := make([][]int, len(c.inputs))
	for k, in := range c.inputs {
		st, err := Strides(in, c.out)
		require.NoError(t, err)
		strides[k] = st
	}
	o := 0
	testkit.EachIndex(c.out, func(idx []int) {
		at := make([]int, len(c.inputs))
		for k := range at {
			at[k] = testkit.Offset(idx, strides[k])
		}
		f(o, at)
		o++
	})
}

func TestApplyTernaryAndSelect(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testNary[float32])
		t.Run("float64", testNary[float64])
		t.Run("int8", testNary[int8])
		t.Run("uint16", testNary[uint16])
		t.Run("int32", testNary[int32])
		t.Run("uint64", testNary[uint64])
	})
}

func testNary[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range callCases(rng, 3) {
		out, err := Numpy(c.inputs...)
		require.NoError(t, err)
		c.out = out // the inputs' dims of size 1 everywhere stay 1
		data := make([][]T, 3)
		for k, in := range c.inputs {
			n, _ := in.Size()
			data[k] = testkit.RandomNumbers[T](rng, n)
		}
		n, _ := c.out.Size()
		for _, op := range elem.TernaryOps() {
			if !elem.TernaryDefinedOn[T](op) {
				require.ErrorIs(t, ApplyTernary(op, make([]T, n), data[0], c.inputs[0], data[1], c.inputs[1], data[2], c.inputs[2]), ErrOp)
				continue
			}
			what := fmt.Sprintf("%v %v", op, c)
			want := make([]T, n)
			naryRef(t, c, func(o int, at []int) {
				elem.ApplyTernary(op, want[o:o+1], data[0][at[0]:][:1], data[1][at[1]:][:1], data[2][at[2]:][:1])
			})
			got := make([]T, n)
			require.NoError(t, ApplyTernary(op, got, data[0], c.inputs[0], data[1], c.inputs[1], data[2], c.inputs[2]), what)
			testkit.RequireSameBits(t, want, got, what)
		}
		cn, _ := c.inputs[0].Size()
		cond := make([]bool, cn)
		for i := range cond {
			cond[i] = rng.IntN(2) == 0
		}
		want := make([]T, n)
		naryRef(t, c, func(o int, at []int) {
			want[o] = data[2][at[2]]
			if cond[at[0]] {
				want[o] = data[1][at[1]]
			}
		})
		got := make([]T, n)
		require.NoError(t, Select(got, cond, c.inputs[0], data[1], c.inputs[1], data[2], c.inputs[2]), "select %v", c)
		testkit.RequireSameBits(t, want, got, fmt.Sprintf("select %v", c))
	}
}

func TestApplyUnary(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testApplyUnary[float32])
		t.Run("float64", testApplyUnary[float64])
		t.Run("int8", testApplyUnary[int8])
		t.Run("uint16", testApplyUnary[uint16])
		t.Run("int32", testApplyUnary[int32])
		t.Run("int64", testApplyUnary[int64])
	})
}

func testApplyUnary[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, c := range callCases(rng, 1) {
		an, _ := c.inputs[0].Size()
		a := testkit.RandomNumbers[T](rng, an)
		n, _ := c.out.Size()
		for _, op := range elem.UnaryOps() {
			if !elem.UnaryDefinedOn[T](op) {
				require.ErrorIs(t, ApplyUnary(op, make([]T, n), c.out, a, c.inputs[0]), ErrOp)
				continue
			}
			what := fmt.Sprintf("%v %v", op, c)
			want := make([]T, n)
			naryRef(t, c, func(o int, at []int) { elem.ApplyUnary(op, want[o:o+1], a[at[0]:][:1]) })
			got := make([]T, n)
			require.NoError(t, ApplyUnary(op, got, c.out, a, c.inputs[0]), what)
			testkit.RequireSameBits(t, want, got, what)
		}
	}
}

// TestNaryInPlace runs dst as exactly an input of the output's shape.
func TestNaryInPlace(t *testing.T) {
	x := []float32{1, 2, 3, 4, 5, 6}
	require.NoError(t, ApplyTernary(elem.OpFMA, x, x, S(2, 3), []float32{10}, S(), []float32{1, 2, 3}, S(3)))
	require.Equal(t, []float32{11, 22, 33, 41, 52, 63}, x)
	require.NoError(t, Select(x, []bool{true, false}, S(2, 1), []float32{0}, S(), x, S(2, 3)))
	require.Equal(t, []float32{0, 0, 0, 41, 52, 63}, x)
	require.NoError(t, ApplyUnary(elem.OpNeg, x, S(2, 3), x, S(2, 3)))
	nz := float32(math.Copysign(0, -1))
	testkit.RequireSameBits(t, []float32{nz, nz, nz, -41, -52, -63}, x, "neg in place")
}

func TestNaryErrorsWriteNothing(t *testing.T) {
	buf := make([]float32, 12)
	for i := range buf {
		buf[i] = float32(i)
	}
	six := []float32{1, 2, 3, 4, 5, 6}
	cases := []struct {
		name string
		run  func(dst []float32) error
		is   error
		msg  string
	}{
		{"incompatible", func(dst []float32) error {
			return ApplyTernary(elem.OpFMA, dst[:6], six, S(2, 3), six[:2], S(2), six[:1], S())
		}, ErrIncompatible, "2"},
		{"dst length", func(dst []float32) error {
			return ApplyTernary(elem.OpClamp, dst[:5], six, S(2, 3), six[:1], S(), six[:1], S())
		}, ErrDataLength, "dst has 5 elements; the output (2,3) of a (2,3), b (), c () needs 6"},
		{"input length", func(dst []float32) error {
			return Select(dst[:6], []bool{true}, S(), six[:5], S(2, 3), six[:1], S())
		}, ErrDataLength, "a has 5 elements; its shape (2,3) needs 6"},
		{"partial overlap", func(dst []float32) error {
			return ApplyTernary(elem.OpFMA, dst[:6], dst[1:7], S(2, 3), six[:1], S(), six[:1], S())
		}, ErrOverlap, "dst shares memory with a (2,3) without being exactly a"},
		{"broadcast input as dst", func(dst []float32) error {
			return ApplyTernary(elem.OpFMA, dst[:6], dst[:3], S(3), six[:2], S(2, 1), six[:1], S())
		}, ErrOverlap, "dst shares memory with a (3)"},
		{"unary target", func(dst []float32) error {
			return ApplyUnary(elem.OpAbs, dst[:6], S(2, 3), six[:2], S(2))
		}, ErrIncompatible, "dimension 1"},
		{"invalid op", func(dst []float32) error {
			return ApplyTernary(elem.TernaryOp(200), dst[:6], six, S(2, 3), six, S(2, 3), six, S(2, 3))
		}, ErrOp, "invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := append([]float32(nil), buf...)
			err := c.run(dst)
			require.ErrorIs(t, err, c.is)
			require.ErrorContains(t, err, c.msg)
			require.Equal(t, buf, dst, "nothing written")
		})
	}
}

func TestCompare(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testCompare[float32])
		t.Run("float64", testCompare[float64])
		t.Run("int8", testCompare[int8])
		t.Run("uint16", testCompare[uint16])
		t.Run("int64", testCompare[int64])
	})
}

func testCompare[T elem.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, c := range callCases(rng, 2) {
		out, err := Numpy(c.inputs...)
		require.NoError(t, err)
		c.out = out
		data := make([][]T, 2)
		for k, in := range c.inputs {
			n, _ := in.Size()
			data[k] = testkit.RandomNumbers[T](rng, n)
		}
		n, _ := c.out.Size()
		for _, op := range elem.CompareOps() {
			what := fmt.Sprintf("%v %v", op, c)
			want := make([]bool, n)
			naryRef(t, c, func(o int, at []int) {
				elem.Compare(op, want[o:o+1], data[0][at[0]:][:1], data[1][at[1]:][:1])
			})
			got := make([]bool, n)
			require.NoError(t, Compare(op, got, data[0], c.inputs[0], data[1], c.inputs[1]), what)
			require.Equal(t, want, got, what)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	dst := []bool{true, true, true}
	require.ErrorIs(t, Compare(elem.OpLt, dst, []int32{1, 2}, S(2), []int32{1, 2, 3}, S(3)), ErrIncompatible)
	require.ErrorIs(t, Compare(elem.OpLt, dst[:2], []int32{1, 2, 3}, S(3), []int32{1}, S()), ErrDataLength)
	require.ErrorIs(t, Compare(elem.CompareOp(99), dst, []int32{1, 2, 3}, S(3), []int32{1}, S()), ErrOp)
	require.Equal(t, []bool{true, true, true}, dst, "nothing written")
	require.NoError(t, Compare(elem.OpLt, dst, []uint8{1, 200, 3}, S(3), []uint8{100}, S()))
	require.Equal(t, []bool{true, false, true}, dst)
}
