package broadcast

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

func TestStrides(t *testing.T) {
	cases := []struct {
		name    string
		op, out Shape
		want    []int
		kinds   []error // non-nil when an error is expected
		msg     string
	}{
		{name: "scalar over scalar", op: S(), out: S(), want: []int{}},
		{name: "scalar over (2,3)", op: S(), out: S(2, 3), want: []int{0, 0}},
		{name: "(3) over (2,3)", op: S(3), out: S(2, 3), want: []int{0, 1}},
		{name: "(2,1) over (2,3)", op: S(2, 1), out: S(2, 3), want: []int{1, 0}},
		{name: "(2,3) over (2,3)", op: S(2, 3), out: S(2, 3), want: []int{3, 1}},
		{name: "(2,1,5) over (2,4,5)", op: S(2, 1, 5), out: S(2, 4, 5), want: []int{5, 0, 1}},
		{name: "(1,3,1) over (3,3,7)", op: S(1, 3, 1), out: S(3, 3, 7), want: []int{0, 1, 0}},
		{name: "(3) over (1,3)", op: S(3), out: S(1, 3), want: []int{0, 1}},
		{name: "(1,1) over (1,1)", op: S(1, 1), out: S(1, 1), want: []int{0, 0}},
		{name: "(0,3) over (0,3)", op: S(0, 3), out: S(0, 3), want: []int{3, 1}},
		{name: "(1) over (0)", op: S(1), out: S(0), want: []int{0}},
		{name: "ones over (2,3,4)", op: S(1, 1, 1), out: S(2, 3, 4), want: []int{0, 0, 0}},
		{name: "pdpd aligned (1,3,1,1) over (2,3,4,5)", op: S(1, 3, 1, 1), out: S(2, 3, 4, 5), want: []int{0, 1, 0, 0}},
		{name: "(3) over (2)", op: S(3), out: S(2), kinds: []error{ErrIncompatible},
			msg: "broadcast: operand (3) cannot be broadcast to output (2): size 3 of operand must be 1 or match size 2 of output at dimension 0"},
		{name: "(3) over (1)", op: S(3), out: S(1), kinds: []error{ErrIncompatible}},
		{name: "(0) over (1)", op: S(0), out: S(1), kinds: []error{ErrIncompatible}},
		{name: "(1,3) over (3)", op: S(1, 3), out: S(3), kinds: []error{ErrIncompatible, ErrRank},
			msg: "broadcast: operand (1,3) cannot be broadcast to output (3): rank 2 of operand exceeds rank 1 of output"},
		{name: "negative operand", op: S(-1), out: S(3), kinds: []error{ErrInvalidShape, ErrNegativeDim}},
		{name: "negative output", op: S(1), out: S(3, -1), kinds: []error{ErrInvalidShape, ErrNegativeDim}},
		{name: "overflowing output", op: S(1), out: S(huge, huge), kinds: []error{ErrOverflow}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Strides(tc.op, tc.out)
			if tc.kinds != nil {
				requireCaseErr(t, err, tc.kinds, tc.msg)
				require.Nil(t, got)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// offsetByIndex is the reference: the offset in an operand's contiguous data
// of the element that output index idx reads under NUMPY broadcasting.
func offsetByIndex(op Shape, idx []int) int {
	lead := len(idx) - len(op)
	off := 0
	for k, n := range op {
		i := 0
		if n != 1 {
			i = idx[lead+k]
		}
		off = off*n + i
	}
	return off
}

// checkLayout checks a Layout against the reference index computation.
func checkLayout(t *testing.T, l Layout, inputs []Shape) {
	t.Helper()
	require.Len(t, l.Strides, len(inputs))
	outStrides, err := l.Out.Strides()
	require.NoError(t, err)
	require.Equal(t, outStrides, l.OutStrides)
	n := 0
	testkit.EachIndex(l.Out, func(idx []int) {
		require.Equal(t, n, testkit.Offset(idx, l.OutStrides), "output is row-major at %v", idx)
		n++
		for j, in := range inputs {
			require.Len(t, l.Strides[j], len(l.Out))
			require.Equal(t, offsetByIndex(in, idx), testkit.Offset(idx, l.Strides[j]), "input %d %v at %v", j, in, idx)
		}
	})
	size, _ := l.Out.Size()
	require.Equal(t, size, n)
}

// TestNumpyLayoutRandom checks NumpyLayout on random broadcastable shapes
// against a naive shape rule and index loop.
func TestNumpyLayoutRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		full := make(Shape, rng.IntN(6))
		for d := range full {
			full[d] = rng.IntN(5) // 0..4, zero sizes included
		}
		inputs := make([]Shape, 1+rng.IntN(3))
		for j := range inputs {
			op := full[rng.IntN(len(full)+1):].Clone()
			for k := range op {
				if rng.IntN(3) == 0 {
					op[k] = 1
				}
			}
			inputs[j] = op
		}
		t.Run(fmt.Sprint(iter), func(t *testing.T) {
			l, err := NumpyLayout(inputs...)
			require.NoError(t, err, "inputs %v", inputs)
			// Naive rule: the size other than 1 found in any input, else 1.
			want := ones(len(l.Out))
			for _, in := range inputs {
				for k, n := range in {
					if n != 1 {
						want[len(want)-len(in)+k] = n
					}
				}
			}
			require.Equal(t, want, l.Out)
			checkLayout(t, l, inputs)
		})
	}
}

func TestLayoutsByIndex(t *testing.T) {
	t.Run("pdpd", func(t *testing.T) {
		for _, tc := range []struct {
			a, b Shape
			axis int
		}{
			{S(2, 3, 4, 5), S(3, 4), 1},
			{S(2, 3, 4, 5), S(3, 1), 1},
			{S(2, 3, 4, 5), S(1, 3), 0},
			{S(2, 3, 4, 5), S(3, 1, 5), 1},
			{S(2, 3, 4, 5), S(), -1},
			{S(3, 2), S(3), 0},
		} {
			l, err := RulePDPD(tc.axis).Layout(tc.a, tc.b)
			require.NoError(t, err)
			aligned, err := AlignPDPD(tc.a, tc.b, tc.axis)
			require.NoError(t, err)
			checkLayout(t, l, []Shape{tc.a, aligned})
		}
	})
	t.Run("pdpd and none by name", func(t *testing.T) {
		l, err := PDPDLayout(S(2, 3, 4, 5), S(3, 1), 1)
		require.NoError(t, err)
		checkLayout(t, l, []Shape{S(2, 3, 4, 5), S(1, 3, 1, 1)})
		_, err = PDPDLayout(S(2, 3), S(3), -2)
		requireErr(t, err, errs(ErrAxis))
		l, err = NoneLayout(S(2, 3), S(2, 3))
		require.NoError(t, err)
		checkLayout(t, l, []Shape{S(2, 3), S(2, 3)})
		_, err = NoneLayout(S(2, 3), S(3))
		requireErr(t, err, errs(ErrIncompatible, ErrRank))
	})
	t.Run("in place shape", func(t *testing.T) {
		out, err := InPlaceShape(S(5, 3, 4, 1), S(3, 1, 1))
		require.NoError(t, err)
		require.Equal(t, S(5, 3, 4, 1), out)
		_, err = InPlaceShape(S(3), S(1, 3))
		requireErr(t, err, errs(ErrInPlace))
	})
	t.Run("in place", func(t *testing.T) {
		l, err := InPlaceLayout(S(5, 3, 4, 1), S(3, 1, 1))
		require.NoError(t, err)
		checkLayout(t, l, []Shape{S(5, 3, 4, 1), S(3, 1, 1)})
	})
	t.Run("bidirectional", func(t *testing.T) {
		l, err := BidirectionalLayout(S(3, 1), S(2, 1, 6))
		require.NoError(t, err)
		checkLayout(t, l, []Shape{S(3, 1)})
	})
	t.Run("minibatch", func(t *testing.T) {
		shapes := []BatchShape{B(1, 2, 3), B(4), B(4, 2, 3, 1), B(1, 1)}
		out, l, err := MinibatchLayout(shapes...)
		require.NoError(t, err)
		require.Equal(t, B(4, 2, 3), out)
		flats := make([]Shape, len(shapes))
		for i, s := range shapes {
			flats[i], err = s.Flat()
			require.NoError(t, err)
		}
		checkLayout(t, l, flats)
	})
}

// fuzzShapes decodes up to four shapes and an axis from data: sizes -1..4.
func fuzzShapes(data []byte) ([]Shape, int) {
	axis := -1
	if len(data) > 0 {
		axis = int(data[0]%10) - 3
		data = data[1:]
	}
	var shapes []Shape
	for len(data) > 0 && len(shapes) < 4 {
		r := int(data[0] % 6)
		data = data[1:]
		s := Shape{}
		for ; r > 0 && len(data) > 0; r-- {
			s = append(s, int(data[0]%6)-1)
			data = data[1:]
		}
		shapes = append(shapes, s)
	}
	for len(shapes) < 2 {
		shapes = append(shapes, Shape{})
	}
	return shapes, axis
}

// requireWellFormed checks the contract of every error of the package.
func requireWellFormed(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	require.True(t, strings.HasPrefix(err.Error(), "broadcast: "), err.Error())
	wraps := false
	for _, s := range allSentinels {
		wraps = wraps || errors.Is(err, s)
	}
	require.True(t, wraps, "error %q wraps no sentinel", err)
}

func FuzzRules(f *testing.F) {
	f.Add([]byte{2, 2, 2, 3, 1, 3})
	f.Add([]byte{4, 4, 2, 3, 4, 5, 2, 3, 1})
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{5, 3, 1, 0, 1, 2, 0, 1, 1, 4})
	f.Add([]byte{1, 4, 8, 1, 6, 1, 3, 7, 1, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		shapes, axis := fuzzShapes(data)
		a, b := shapes[0], shapes[1]

		l, err := NumpyLayout(shapes...)
		requireWellFormed(t, err)
		if err == nil {
			checkLayout(t, l, shapes)
		}

		l, err = RulePDPD(axis).Layout(a, b)
		requireWellFormed(t, err)
		if err == nil {
			require.Equal(t, a, l.Out)
			aligned, err := AlignPDPD(a, b, axis)
			require.NoError(t, err)
			out, err := Numpy(a, aligned)
			require.NoError(t, err)
			require.Equal(t, a, out, "pdpd only broadcasts b")
			checkLayout(t, l, []Shape{a, aligned})
		}

		out, err := None(a, b)
		requireWellFormed(t, err)
		if err == nil {
			require.Equal(t, a, out)
			require.Equal(t, b, out)
		}

		err = InPlace(a, b)
		requireWellFormed(t, err)
		if err == nil {
			out, err := Numpy(a, b)
			require.NoError(t, err)
			require.Equal(t, a, out)
		}

		batches := make([]BatchShape, len(shapes))
		for i, s := range shapes {
			batches[i] = BatchShape{Dims: s, Batch: max(1, len(s)-1)}
		}
		_, ml, err := MinibatchLayout(batches...)
		requireWellFormed(t, err)
		if err == nil {
			flats := make([]Shape, len(batches))
			for i, s := range batches {
				flats[i], err = s.Flat()
				require.NoError(t, err)
			}
			checkLayout(t, ml, flats)
		}
	})
}
