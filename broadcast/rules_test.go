package broadcast

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func ones(n int) Shape {
	s := make(Shape, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

type naryCase struct {
	name     string
	shapes   []Shape
	want     Shape   // nil when an error is expected
	kinds    []error // sentinels the error must wrap
	msg      string
	mentions []string
}

func TestNumpyEdges(t *testing.T) {
	inc := []error{ErrIncompatible}
	neg := []error{ErrInvalidShape, ErrNegativeDim}
	cases := []naryCase{
		// Rank 0 and arity.
		{name: "no shapes", shapes: nil, want: S()},
		{name: "one shape", shapes: []Shape{S(2, 3)}, want: S(2, 3)},
		{name: "one scalar", shapes: []Shape{S()}, want: S()},
		{name: "three scalars", shapes: []Shape{S(), S(), S()}, want: S()},
		{name: "scalar and (1)", shapes: []Shape{S(), S(1)}, want: S(1)},

		// N-ary.
		{name: "3-ary", shapes: []Shape{S(2, 1, 5), S(4, 1), S(5)}, want: S(2, 4, 5)},
		{name: "4-ary first non-1 later", shapes: []Shape{S(1), S(3), S(1, 3), S(2, 1)}, want: S(2, 3)},
		{name: "3-ary mismatch", shapes: []Shape{S(2, 3), S(3), S(4)}, kinds: inc,
			msg: "broadcast: shapes (2,3), (3) and (4) are incompatible: size 3 of operand 0 must match size 4 of operand 2 at dimension 1"},
		{name: "3-ary mismatch between later operands", shapes: []Shape{S(1, 1), S(5, 1), S(6, 1)}, kinds: inc,
			msg: "broadcast: shapes (1,1), (5,1) and (6,1) are incompatible: size 5 of operand 1 must match size 6 of operand 2 at dimension 0"},

		// Zero-size dimensions.
		{name: "(0)+(1)", shapes: []Shape{S(0), S(1)}, want: S(0)},
		{name: "(1)+(0)", shapes: []Shape{S(1), S(0)}, want: S(0)},
		{name: "(0)+(0)", shapes: []Shape{S(0), S(0)}, want: S(0)},
		{name: "(0)+()", shapes: []Shape{S(0), S()}, want: S(0)},
		{name: "(2,0)+(1,1)", shapes: []Shape{S(2, 0), S(1, 1)}, want: S(2, 0)},
		{name: "(0,3)+(3)", shapes: []Shape{S(0, 3), S(3)}, want: S(0, 3)},
		{name: "(1,0)+(5,1)", shapes: []Shape{S(1, 0), S(5, 1)}, want: S(5, 0)},
		{name: "(0)+(3)", shapes: []Shape{S(0), S(3)}, kinds: inc,
			msg: "broadcast: shapes (0) and (3) are incompatible: size 0 of a must match size 3 of b at dimension 0"},
		{name: "(3,0)+(2,0)", shapes: []Shape{S(3, 0), S(2, 0)}, kinds: inc,
			mentions: []string{"size 3 of a must match size 2 of b at dimension 0"}},

		// Long runs of 1s.
		{name: "ones(10)+(1)", shapes: []Shape{ones(10), S(1)}, want: ones(10)},
		{name: "scalar+ones(12)", shapes: []Shape{S(), ones(12)}, want: ones(12)},
		{name: "(1x7,7)+(6,1x7)", shapes: []Shape{S(1, 1, 1, 1, 1, 1, 1, 7), S(6, 1, 1, 1, 1, 1, 1, 1)},
			want: S(6, 1, 1, 1, 1, 1, 1, 7)},
		{name: "(5)+(1x9)", shapes: []Shape{S(5), ones(9)}, want: append(ones(8), 5)},
		{name: "(2,1x7)+(3,1x7)", shapes: []Shape{S(2, 1, 1, 1, 1, 1, 1, 1), S(3, 1, 1, 1, 1, 1, 1, 1)}, kinds: inc,
			msg: "broadcast: shapes (2,1,1,1,1,1,1,1) and (3,1,1,1,1,1,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 0"},

		// Several mismatches: the trailing one is reported, as PyTorch does.
		{name: "(2,3)+(4,5)", shapes: []Shape{S(2, 3), S(4, 5)}, kinds: inc,
			msg: "broadcast: shapes (2,3) and (4,5) are incompatible: size 3 of a must match size 5 of b at dimension 1"},

		// Invalid shapes.
		{name: "negative a", shapes: []Shape{S(2, -1), S(2, 1)}, kinds: neg,
			msg: "broadcast: shape (2,-1) of a is invalid: size -1 at dimension 1 is negative"},
		{name: "negative b", shapes: []Shape{S(2, 1), S(-5)}, kinds: neg,
			msg: "broadcast: shape (-5) of b is invalid: size -5 at dimension 0 is negative"},
		{name: "negative operand 2", shapes: []Shape{S(1), S(1), S(1, -1)}, kinds: neg,
			mentions: []string{"shape (1,-1) of operand 2", "size -1 at dimension 1"}},
		{name: "overflowing input", shapes: []Shape{S(huge, huge), S(1)}, kinds: []error{ErrOverflow},
			mentions: []string{S(huge, huge).String() + " of a is too large"}},
		{name: "overflowing result", shapes: []Shape{S(huge, 1), S(1, huge)}, kinds: []error{ErrOverflow},
			mentions: []string{"the broadcast result " + S(huge, huge).String(), S(huge, 1).String(), S(1, huge).String()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Numpy(tc.shapes...)
			l, layErr := NumpyLayout(tc.shapes...)
			if tc.want == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, tc.mentions...)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.NoError(t, layErr)
			require.Equal(t, tc.want, l.Out)
			require.Len(t, l.Strides, len(tc.shapes))
		})
	}
}

func TestNumpyDoesNotAliasInputs(t *testing.T) {
	a := S(2, 3)
	out, err := Numpy(a)
	require.NoError(t, err)
	out[0] = 7
	require.Equal(t, S(2, 3), a)

	out, err = PDPD(a, S(3), -1)
	require.NoError(t, err)
	out[0] = 7
	require.Equal(t, S(2, 3), a)

	out, err = None(a, S(2, 3))
	require.NoError(t, err)
	out[0] = 7
	require.Equal(t, S(2, 3), a)
}

func TestNone(t *testing.T) {
	inc := []error{ErrIncompatible}
	rank := []error{ErrIncompatible, ErrRank}
	cases := []binaryCase{
		{name: "()+()", a: S(), b: S(), want: S()},
		{name: "(2,3)+(2,3)", a: S(2, 3), b: S(2, 3), want: S(2, 3)},
		{name: "(0)+(0)", a: S(0), b: S(0), want: S(0)},
		{name: "ones", a: ones(9), b: ones(9), want: ones(9)},
		{name: "()+(1)", a: S(), b: S(1), kinds: rank,
			msg: "broadcast: shapes () and (1) are incompatible without broadcasting: rank 0 of a must match rank 1 of b"},
		{name: "(1)+()", a: S(1), b: S(), kinds: rank},
		{name: "(1,3)+(3)", a: S(1, 3), b: S(3), kinds: rank},
		{name: "(3)+(1) does not broadcast", a: S(3), b: S(1), kinds: inc,
			msg: "broadcast: shapes (3) and (1) are incompatible without broadcasting: size 3 of a must match size 1 of b at dimension 0"},
		{name: "(2,3)+(2,4)", a: S(2, 3), b: S(2, 4), kinds: inc,
			msg: "broadcast: shapes (2,3) and (2,4) are incompatible without broadcasting: size 3 of a must match size 4 of b at dimension 1"},
		{name: "negative", a: S(2, 3), b: S(2, -3), kinds: []error{ErrInvalidShape, ErrNegativeDim},
			mentions: []string{"(2,-3) of b"}},
		{name: "overflow", a: S(huge, huge), b: S(huge, huge), kinds: []error{ErrOverflow}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := None(tc.a, tc.b)
			viaRule, ruleErr := RuleNone.Shape(tc.a, tc.b)
			l, layErr := Rule{}.Layout(tc.a, tc.b)
			if tc.want == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, append(bothShapes(tc.kinds, tc.a, tc.b), tc.mentions...)...)
				require.Equal(t, err, ruleErr)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.NoError(t, ruleErr)
			require.Equal(t, tc.want, viaRule)
			require.NoError(t, layErr)
			require.Equal(t, tc.want, l.Out)
			require.Equal(t, l.Strides[0], l.Strides[1])
		})
	}
}

func TestPDPDEdges(t *testing.T) {
	a := S(2, 3, 4, 5)
	inc := []error{ErrIncompatible}
	rank := []error{ErrIncompatible, ErrRank}
	axis := []error{ErrAxis}
	fit := []error{ErrIncompatible, ErrAxis}
	neg := []error{ErrInvalidShape, ErrNegativeDim}
	runPDPD(t, []pdpdCase{
		// Rank of b, untrimmed, must not exceed rank of a.
		{name: "rank b > rank a", a: S(2, 3), b: S(1, 2, 3), axis: -1, kinds: rank,
			msg: "broadcast: pdpd shapes (2,3) and (1,2,3) are incompatible: rank 3 of b exceeds rank 2 of a"},
		{name: "rank counts trailing 1s", a: S(2, 3, 4), b: S(3, 1, 1, 1), axis: 1, kinds: rank},
		{name: "() and (1)", a: S(), b: S(1), axis: -1, kinds: rank},

		// Axis.
		{name: "axis -2", a: a, b: S(3, 4), axis: -2, kinds: axis,
			msg: "broadcast: pdpd axis -2 is invalid for shapes (2,3,4,5) and (3,4): the only negative axis allowed is -1 (the default, rank(a)-rank(b))"},
		{name: "axis -100", a: a, b: S(), axis: -100, kinds: axis},
		{name: "axis beyond rank", a: a, b: S(), axis: 5, kinds: axis,
			msg: "broadcast: pdpd axis 5 is invalid for shapes (2,3,4,5) and (): it exceeds rank 4 of a"},
		{name: "b does not fit", a: a, b: S(3, 4), axis: 3, kinds: fit,
			msg: "broadcast: pdpd shapes (2,3,4,5) and (3,4) are incompatible at axis 3: b does not fit in a: axis 3 + rank 2 of b exceeds rank 4 of a"},
		{name: "(5) at axis 4", a: a, b: S(5), axis: 4, kinds: fit},
		{name: "trimmed b does not fit", a: a, b: S(4, 5, 1), axis: 3, kinds: fit,
			mentions: []string{"b (trimmed to (4,5)) does not fit"}},
		{name: "scalar b at axis rank(a)", a: a, b: S(), axis: 4, aligned: S(1, 1, 1, 1)},
		{name: "scalar b at axis 0", a: a, b: S(), axis: 0, aligned: S(1, 1, 1, 1)},
		{name: "rank 0 both default", a: S(), b: S(), axis: -1, aligned: S()},
		{name: "rank 0 both axis 0", a: S(), b: S(), axis: 0, aligned: S()},
		{name: "rank 0 both axis 1", a: S(), b: S(), axis: 1, kinds: axis},

		// The default axis uses b's untrimmed rank.
		{name: "(3,1) default axis is 2", a: a, b: S(3, 1), axis: -1, kinds: inc,
			mentions: []string{"at axis 2", "size 3 of b must match size 4 of a at dimension 2 of a (dimension 0 of b)"}},
		{name: "(3,1x4) default axis is 1", a: S(2, 3, 4, 5, 6, 7), b: S(3, 1, 1, 1, 1), axis: -1, aligned: S(1, 3, 1, 1, 1, 1)},
		{name: "all-ones b", a: S(2, 3), b: S(1, 1), axis: -1, aligned: S(1, 1)},
		{name: "long run of 1s in a", a: append(ones(8), 3), b: S(3), axis: -1, aligned: append(ones(8), 3)},

		// A 1 anywhere in the window broadcasts.
		{name: "(3,1,5) at 1", a: a, b: S(3, 1, 5), axis: 1, aligned: S(1, 3, 1, 5)},
		{name: "(1,1,5) at 1", a: a, b: S(1, 1, 5), axis: 1, aligned: S(1, 1, 1, 5)},
		{name: "equal shapes", a: a, b: a, axis: -1, aligned: a},
		{name: "equal shapes axis 0", a: a, b: a, axis: 0, aligned: a},

		// Only b broadcasts, zero sizes included.
		{name: "b 3 over a 1", a: S(2, 1, 4), b: S(3), axis: 1, kinds: inc,
			msg: "broadcast: pdpd shapes (2,1,4) and (3) are incompatible at axis 1: size 3 of b must match size 1 of a at dimension 1 of a (dimension 0 of b); only b broadcasts, and only from size 1"},
		{name: "b 1 over a 0", a: S(2, 0), b: S(1), axis: 1, aligned: S(1, 1)},
		{name: "b 0 over a 1", a: S(2, 1), b: S(0), axis: 1, kinds: inc,
			mentions: []string{"size 0 of b must match size 1 of a at dimension 1 of a"}},
		{name: "b 0 over a 0", a: S(2, 0), b: S(0), axis: -1, aligned: S(1, 0)},
		{name: "b 0 over a 3", a: S(2, 3), b: S(0), axis: 1, kinds: inc},
		{name: "b (2,0) over a (2,0)", a: S(2, 0), b: S(2, 0), axis: 0, aligned: S(2, 0)},

		// Invalid shapes.
		{name: "negative a", a: S(2, -3), b: S(3), axis: -1, kinds: neg, mentions: []string{"(2,-3) of a"}},
		{name: "negative b", a: S(2, 3), b: S(-3), axis: -1, kinds: neg, mentions: []string{"(-3) of b"}},
		{name: "overflow a", a: S(huge, huge), b: S(1), axis: -1, kinds: []error{ErrOverflow}},
	})
}

func TestBidirectionalEdges(t *testing.T) {
	cases := []binaryCase{
		{name: "() to ()", a: S(), b: S(), want: S()},
		{name: "() to (2,3)", a: S(), b: S(2, 3), want: S(2, 3)},
		{name: "(0) to (1)", a: S(0), b: S(1), want: S(0)},
		{name: "(1) to (0)", a: S(1), b: S(0), want: S(0)},
		{name: "(1,1,1) to (4)", a: S(1, 1, 1), b: S(4), want: S(1, 1, 4)},
		{name: "(3) to (2)", a: S(3), b: S(2), kinds: []error{ErrIncompatible},
			msg: "broadcast: shapes (3) and (2) are incompatible: size 3 of input must match size 2 of target at dimension 0"},
		{name: "(2) to (0)", a: S(2), b: S(0), kinds: []error{ErrIncompatible}},
		{name: "negative target", a: S(2), b: S(-1), kinds: []error{ErrInvalidShape, ErrNegativeDim},
			mentions: []string{"(-1) of target"}},
		{name: "result overflows", a: S(huge, 1), b: S(huge), kinds: []error{ErrOverflow}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Bidirectional(tc.a, tc.b)
			l, layErr := BidirectionalLayout(tc.a, tc.b)
			if tc.want == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, append([]string{tc.b.String()}, tc.mentions...)...)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.NoError(t, layErr)
			require.Equal(t, tc.want, l.Out)
			require.Len(t, l.Strides, 1)
		})
	}
}

func TestInPlaceEdges(t *testing.T) {
	runInPlace(t, []binaryCase{
		{name: "(3).add_((1,3)) rank grows", a: S(3), b: S(1, 3), kinds: []error{ErrInPlace},
			msg: "broadcast: cannot write the result of shapes (3) and (1,3) in place into a: the result (1,3) has rank 2 but a has rank 1"},
		{name: "().add_((1))", a: S(), b: S(1), kinds: []error{ErrInPlace}},
		{name: "().add_(())", a: S(), b: S(), want: S()},
		{name: "(1).add_(())", a: S(1), b: S(), want: S(1)},
		{name: "(2,3).add_((3))", a: S(2, 3), b: S(3), want: S(2, 3)},
		{name: "(2,3).add_((2,1))", a: S(2, 3), b: S(2, 1), want: S(2, 3)},
		{name: "(3,1).add_((1,4))", a: S(3, 1), b: S(1, 4), kinds: []error{ErrInPlace},
			mentions: []string{"the expanded size 1 of a must match the existing size 4 of b at non-singleton dimension 1", "(3,4)"}},
		{name: "(1,1,1).add_((5))", a: S(1, 1, 1), b: S(5), kinds: []error{ErrInPlace},
			mentions: []string{"the expanded size 1 of a must match the existing size 5 of b at non-singleton dimension 2"}},
		{name: "(1).add_((0))", a: S(1), b: S(0), kinds: []error{ErrInPlace},
			mentions: []string{"the expanded size 1 of a must match the existing size 0 of b"}},
		{name: "(0).add_((1))", a: S(0), b: S(1), want: S(0)},
		{name: "(0,2).add_((2))", a: S(0, 2), b: S(2), want: S(0, 2)},
		{name: "ones(8).add_(())", a: ones(8), b: S(), want: ones(8)},
		// Shapes that do not broadcast at all give the NUMPY error, not ErrInPlace.
		{name: "(5,2,4,1).add_((3,1,1))", a: S(5, 2, 4, 1), b: S(3, 1, 1), kinds: []error{ErrIncompatible},
			msg: "broadcast: shapes (5,2,4,1) and (3,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 1"},
		{name: "negative", a: S(-1), b: S(1), kinds: []error{ErrInvalidShape, ErrNegativeDim}},
	})
}

func TestRule(t *testing.T) {
	require.Equal(t, "none", Rule{}.String())
	require.Equal(t, "none", RuleNone.String())
	require.Equal(t, "numpy", RuleNumpy.String())
	require.Equal(t, "pdpd(axis=-1)", RulePDPD(-1).String())
	require.Equal(t, "pdpd(axis=2)", RulePDPD(2).String())

	got, err := RuleNumpy.Shape(S(2, 1), S(3))
	require.NoError(t, err)
	require.Equal(t, S(2, 3), got)

	got, err = RulePDPD(1).Shape(S(2, 3, 4, 5), S(3, 1))
	require.NoError(t, err)
	require.Equal(t, S(2, 3, 4, 5), got)

	_, err = RulePDPD(-2).Shape(S(2, 3), S(3))
	requireErr(t, err, []error{ErrAxis}, "-2")

	// The same shapes under the three rules.
	_, err = RuleNone.Shape(S(2, 3), S(3))
	requireErr(t, err, []error{ErrIncompatible, ErrRank})
	l, err := RuleNumpy.Layout(S(2, 3), S(3))
	require.NoError(t, err)
	require.Equal(t, [][]int{{3, 1}, {0, 1}}, l.Strides)
	l, err = RulePDPD(-1).Layout(S(2, 3), S(3))
	require.NoError(t, err)
	require.Equal(t, [][]int{{3, 1}, {0, 1}}, l.Strides)
	l, err = RulePDPD(0).Layout(S(3, 2), S(3))
	require.NoError(t, err)
	require.Equal(t, [][]int{{2, 1}, {1, 0}}, l.Strides, "pdpd axis 0 broadcasts b along the inner dimension")
}
