package broadcast

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShapeString(t *testing.T) {
	cases := []struct {
		s    Shape
		want string
	}{
		{nil, "()"},
		{S(), "()"},
		{S(3), "(3)"},
		{S(2, 3), "(2,3)"},
		{S(5, 2, 4, 1), "(5,2,4,1)"},
		{S(0), "(0)"},
		{S(2, -1), "(2,-1)"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			require.Equal(t, tc.want, tc.s.String())
		})
	}
}

func TestShapeEqual(t *testing.T) {
	cases := []struct {
		name string
		a, b Shape
		want bool
	}{
		{"nil==empty", nil, S(), true},
		{"()!=(1)", S(), S(1), false},
		{"(3)!=(1,3)", S(3), S(1, 3), false},
		{"(3)!=(3,1)", S(3), S(3, 1), false},
		{"(2,3)==(2,3)", S(2, 3), S(2, 3), true},
		{"(2,3)!=(3,2)", S(2, 3), S(3, 2), false},
		{"(0)==(0)", S(0), S(0), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.a.Equal(tc.b))
			require.Equal(t, tc.want, tc.b.Equal(tc.a))
		})
	}
}

func TestShapeClone(t *testing.T) {
	s := S(2, 3)
	c := s.Clone()
	require.Equal(t, s, c)
	c[0] = 9
	require.Equal(t, 2, s[0], "clone shares no memory")
	require.NotNil(t, Shape(nil).Clone())
	require.Equal(t, 0, Shape(nil).Clone().Rank())
}

func TestShapeSizeAndStrides(t *testing.T) {
	cases := []struct {
		name    string
		s       Shape
		size    int
		strides []int
		kinds   []error // non-nil when an error is expected
		msg     string
	}{
		{name: "rank 0", s: S(), size: 1, strides: []int{}},
		{name: "nil", s: nil, size: 1, strides: []int{}},
		{name: "(3)", s: S(3), size: 3, strides: []int{1}},
		{name: "(2,3,4)", s: S(2, 3, 4), size: 24, strides: []int{12, 4, 1}},
		{name: "ones", s: S(1, 1, 1, 1, 1, 1, 1, 1), size: 1, strides: []int{1, 1, 1, 1, 1, 1, 1, 1}},
		{name: "zero", s: S(0), size: 0, strides: []int{1}},
		{name: "(2,0,3)", s: S(2, 0, 3), size: 0, strides: []int{0, 3, 1}},
		{name: "MaxInt", s: S(math.MaxInt), size: math.MaxInt, strides: []int{1}},
		{name: "(1,MaxInt,1)", s: S(1, math.MaxInt, 1), size: math.MaxInt, strides: []int{math.MaxInt, 1, 1}},
		{name: "(2,MaxInt/2)", s: S(2, math.MaxInt/2), size: math.MaxInt - 1, strides: []int{math.MaxInt / 2, 1}},
		{name: "negative", s: S(2, -1), kinds: []error{ErrInvalidShape, ErrNegativeDim},
			msg: "broadcast: shape (2,-1) is invalid: size -1 at dimension 1 is negative"},
		{name: "negative first", s: S(-3), kinds: []error{ErrInvalidShape, ErrNegativeDim}},
		{name: "overflow huge^2", s: S(huge, huge), kinds: []error{ErrOverflow}},
		{name: "overflow (MaxInt,2)", s: S(math.MaxInt, 2), kinds: []error{ErrOverflow}},
		// Like NumPy, the non-zero sizes must have a product that fits even when
		// a 0 size makes the array empty, so that every stride fits in an int.
		{name: "overflow with zero", s: S(0, huge, huge), kinds: []error{ErrOverflow}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.s.Size()
			st, stErr := tc.s.Strides()
			vErr := tc.s.Validate()
			lenErr := tc.s.CheckLen(tc.size)
			if tc.kinds != nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, tc.s.String())
				require.Equal(t, err, stErr)
				require.Equal(t, err, vErr)
				require.Equal(t, err, lenErr)
				require.Zero(t, n)
				require.Nil(t, st)
				return
			}
			require.NoError(t, err)
			require.NoError(t, vErr)
			require.Equal(t, tc.size, n)
			require.NoError(t, stErr)
			require.Equal(t, tc.strides, st)
			require.NoError(t, lenErr)
		})
	}
}

func TestShapeCheckLen(t *testing.T) {
	err := S(2, 3).CheckLen(5)
	requireErr(t, err, []error{ErrDataLength}, "(2,3)", "5", "6")
	requireOnly(t, err, ErrDataLength)
	require.EqualError(t, err, "broadcast: data has 5 elements but shape (2,3) needs 6")

	requireErr(t, S().CheckLen(0), []error{ErrDataLength}, "()")
	require.NoError(t, S().CheckLen(1))
	require.NoError(t, S(4, 0).CheckLen(0))
	requireErr(t, S(4, 0).CheckLen(4), []error{ErrDataLength})
}
