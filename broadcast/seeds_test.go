package broadcast

// Every example of the seed documents (shared/seeds/), valid and invalid.
//
//	000, 001  OpenVINO broadcast rules: NUMPY, PDPD and bidirectional examples
//	002       nd tutorial (NumPy general broadcasting rule)
//	003       primitiv shapes and minibatch broadcasting
//	004       PyTorch broadcasting semantics, general and in-place

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

type binaryCase struct {
	name     string
	a, b     Shape
	want     Shape   // nil when an error is expected
	kinds    []error // sentinels the error must wrap
	msg      string  // exact message, if not empty
	mentions []string
}

func TestSeedNumpy(t *testing.T) {
	incompatible := []error{ErrIncompatible}
	cases := []binaryCase{
		// 000/001 OpenVINO "Numpy examples".
		{name: "openvino/scalar-scalar", a: S(), b: S(), want: S()},
		{name: "openvino/(2,3)+(1)", a: S(2, 3), b: S(1), want: S(2, 3)},
		{name: "openvino/(3)+(2,3)", a: S(3), b: S(2, 3), want: S(2, 3)},
		{name: "openvino/(2,3,5)+scalar", a: S(2, 3, 5), b: S(), want: S(2, 3, 5)},
		{name: "openvino/(2,1,5)+(1,4,5)", a: S(2, 1, 5), b: S(1, 4, 5), want: S(2, 4, 5)},
		{name: "openvino/(6,5)+(2,1,5)", a: S(6, 5), b: S(2, 1, 5), want: S(2, 6, 5)},
		{name: "openvino/(2,1,5)+(4,1)", a: S(2, 1, 5), b: S(4, 1), want: S(2, 4, 5)},
		{name: "openvino/(3,2,1,4)+(5,4)", a: S(3, 2, 1, 4), b: S(5, 4), want: S(3, 2, 5, 4)},
		{name: "openvino/(1,5,3)+(5,2,1,3)", a: S(1, 5, 3), b: S(5, 2, 1, 3), want: S(5, 2, 5, 3)},
		{name: "openvino/(3)+(2) mismatch", a: S(3), b: S(2), kinds: incompatible,
			msg: "broadcast: shapes (3) and (2) are incompatible: size 3 of a must match size 2 of b at dimension 0"},
		{name: "openvino/(3,1,5)+(4,4,5) leftmost mismatch", a: S(3, 1, 5), b: S(4, 4, 5), kinds: incompatible,
			msg: "broadcast: shapes (3,1,5) and (4,4,5) are incompatible: size 3 of a must match size 4 of b at dimension 0"},

		// 002 nd tutorial.
		{name: "nd/(2,3)*(3)", a: S(2, 3), b: S(3), want: S(2, 3)},
		{name: "nd/image(256,256,3)*scale(3)", a: S(256, 256, 3), b: S(3), want: S(256, 256, 3)},
		{name: "nd/(5,1,3)*(5,2,3)", a: S(5, 1, 3), b: S(5, 2, 3), want: S(5, 2, 3)},
		{name: "nd/(5,1,3)*(4,2,3) first dim", a: S(5, 1, 3), b: S(4, 2, 3), kinds: incompatible,
			msg: "broadcast: shapes (5,1,3) and (4,2,3) are incompatible: size 5 of a must match size 4 of b at dimension 0"},

		// 004 PyTorch general semantics.
		{name: "pytorch/same shapes (5,7,3)", a: S(5, 7, 3), b: S(5, 7, 3), want: S(5, 7, 3)},
		// PyTorch's text says (0,) is not broadcastable with (2,2) "because x does not
		// have at least 1 dimension"; under the NUMPY rule it fails because 0 meets 2.
		{name: "pytorch/(0)+(2,2)", a: S(0), b: S(2, 2), kinds: incompatible,
			msg: "broadcast: shapes (0) and (2,2) are incompatible: size 0 of a must match size 2 of b at dimension 1"},
		{name: "pytorch/(5,3,4,1)+(3,1,1)", a: S(5, 3, 4, 1), b: S(3, 1, 1), want: S(5, 3, 4, 1)},
		{name: "pytorch/(5,2,4,1)+(3,1,1) 2!=3", a: S(5, 2, 4, 1), b: S(3, 1, 1), kinds: incompatible,
			msg: "broadcast: shapes (5,2,4,1) and (3,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 1"},
		{name: "pytorch/(5,1,4,1)+(3,1,1)", a: S(5, 1, 4, 1), b: S(3, 1, 1), want: S(5, 3, 4, 1)},
		{name: "pytorch/(1)+(3,1,7)", a: S(1), b: S(3, 1, 7), want: S(3, 1, 7)},
		{name: "pytorch/backcompat (4,1)+(4) is (4,4)", a: S(4, 1), b: S(4), want: S(4, 4)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Numpy(tc.a, tc.b)
			rev, revErr := Numpy(tc.b, tc.a)
			lay, layErr := NumpyLayout(tc.a, tc.b)
			if tc.want == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, tc.a.String(), tc.b.String())
				requireErr(t, revErr, tc.kinds, tc.a.String(), tc.b.String())
				require.Equal(t, err, layErr)
				require.Nil(t, got)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.NoError(t, revErr)
			require.Equal(t, tc.want, rev, "NUMPY is symmetric in shape")
			require.NoError(t, layErr)
			require.Equal(t, tc.want, lay.Out)
			require.Len(t, lay.Strides, 2)
		})
	}
}

// TestSeedNumpyStrides checks the planner view of the seed examples whose
// values the seeds give (executed in phase 2).
func TestSeedNumpyStrides(t *testing.T) {
	cases := []struct {
		name    string
		a, b    Shape
		out     Shape
		sa, sb  []int
		outStrd []int
	}{
		// nd: x (2,3) * y (3): y repeats along dimension 0.
		{"nd/(2,3)*(3)", S(2, 3), S(3), S(2, 3), []int{3, 1}, []int{0, 1}, []int{3, 1}},
		{"nd/(5,1,3)*(5,2,3)", S(5, 1, 3), S(5, 2, 3), S(5, 2, 3), []int{3, 0, 1}, []int{6, 3, 1}, []int{6, 3, 1}},
		{"openvino/(6,5)+(2,1,5)", S(6, 5), S(2, 1, 5), S(2, 6, 5), []int{0, 5, 1}, []int{5, 0, 1}, []int{30, 5, 1}},
		{"openvino/scalar", S(2, 3, 5), S(), S(2, 3, 5), []int{15, 5, 1}, []int{0, 0, 0}, []int{15, 5, 1}},
		{"pytorch/(5,1,4,1)+(3,1,1)", S(5, 1, 4, 1), S(3, 1, 1), S(5, 3, 4, 1), []int{4, 0, 1, 0}, []int{0, 1, 0, 0}, []int{12, 4, 1, 1}},
		{"pytorch/(1)+(3,1,7)", S(1), S(3, 1, 7), S(3, 1, 7), []int{0, 0, 0}, []int{7, 0, 1}, []int{7, 7, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := RuleNumpy.Layout(tc.a, tc.b)
			require.NoError(t, err)
			require.Equal(t, tc.out, l.Out)
			require.Equal(t, tc.outStrd, l.OutStrides)
			require.Equal(t, [][]int{tc.sa, tc.sb}, l.Strides)
		})
	}
}

type pdpdCase struct {
	name     string
	a, b     Shape
	axis     int
	aligned  Shape   // b aligned to a; nil when an error is expected
	kinds    []error // sentinels the error must wrap
	msg      string
	mentions []string
}

func runPDPD(t *testing.T, cases []pdpdCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/axis=%d", tc.name, tc.axis), func(t *testing.T) {
			got, err := PDPD(tc.a, tc.b, tc.axis)
			aligned, alignErr := AlignPDPD(tc.a, tc.b, tc.axis)
			lay, layErr := RulePDPD(tc.axis).Layout(tc.a, tc.b)
			if tc.aligned == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, tc.mentions...)
				require.Equal(t, err, alignErr)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.a, got, "PDPD result is a's shape")
			require.NoError(t, alignErr)
			require.Equal(t, tc.aligned, aligned)
			bs, _ := tc.b.Size()
			as, _ := aligned.Size()
			require.Equal(t, bs, as, "aligned b describes the same data")
			require.NoError(t, layErr)
			require.Equal(t, tc.a, lay.Out)
			want, err := Strides(aligned, tc.a)
			require.NoError(t, err)
			require.Equal(t, want, lay.Strides[1])
		})
	}
}

func TestSeedPDPD(t *testing.T) {
	a := S(2, 3, 4, 5)
	runPDPD(t, []pdpdCase{
		{name: "openvino/(3,4)", a: a, b: S(3, 4), axis: 1, aligned: S(1, 3, 4, 1)},
		{name: "openvino/(3,1) trims to (3)", a: a, b: S(3, 1), axis: 1, aligned: S(1, 3, 1, 1)},
		{name: "openvino/(4,5) default", a: a, b: S(4, 5), axis: -1, aligned: S(1, 1, 4, 5)},
		{name: "openvino/(4,5)", a: a, b: S(4, 5), axis: 2, aligned: S(1, 1, 4, 5)},
		{name: "openvino/(1,3)", a: a, b: S(1, 3), axis: 0, aligned: S(1, 3, 1, 1)},
		{name: "openvino/scalar default", a: a, b: S(), axis: -1, aligned: S(1, 1, 1, 1)},
		{name: "openvino/(5) default", a: a, b: S(5), axis: -1, aligned: S(1, 1, 1, 5)},
		{name: "openvino/(5)", a: a, b: S(5), axis: 3, aligned: S(1, 1, 1, 5)},
		{name: "openvino/(8,1,6,1)+(7,1,5) only b broadcasts", a: S(8, 1, 6, 1), b: S(7, 1, 5), axis: 1,
			kinds: []error{ErrIncompatible},
			msg:   "broadcast: pdpd shapes (8,1,6,1) and (7,1,5) are incompatible at axis 1: size 5 of b must match size 1 of a at dimension 3 of a (dimension 2 of b); only b broadcasts, and only from size 1"},
		// The same pair with b's last size made to fit: 7 over 1 is still refused.
		{name: "openvino/(8,1,6,5)+(7,1,5) 7 over 1", a: S(8, 1, 6, 5), b: S(7, 1, 5), axis: 1,
			kinds: []error{ErrIncompatible}, mentions: []string{"size 7 of b must match size 1 of a at dimension 1 of a (dimension 0 of b)"}},
	})
}

func TestSeedBidirectional(t *testing.T) {
	cases := []struct {
		name       string
		in, target Shape
		want       Shape
		strides    []int
	}{
		{"openvino/(5) to (1)", S(5), S(1), S(5), []int{1}},
		{"openvino/(2,3) to (3)", S(2, 3), S(3), S(2, 3), []int{3, 1}},
		{"openvino/(3,1) to (3,4)", S(3, 1), S(3, 4), S(3, 4), []int{1, 0}},
		{"openvino/(3,4) to scalar", S(3, 4), S(), S(3, 4), []int{4, 1}},
		{"openvino/(3,1) to (2,1,6)", S(3, 1), S(2, 1, 6), S(2, 3, 6), []int{0, 1, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Bidirectional(tc.in, tc.target)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			l, err := BidirectionalLayout(tc.in, tc.target)
			require.NoError(t, err)
			require.Equal(t, tc.want, l.Out)
			require.Equal(t, [][]int{tc.strides}, l.Strides)
		})
	}
}

func TestSeedInPlace(t *testing.T) {
	cases := []binaryCase{
		{name: "pytorch/(5,3,4,1).add_((3,1,1))", a: S(5, 3, 4, 1), b: S(3, 1, 1), want: S(5, 3, 4, 1)},
		{name: "pytorch/(1,3,1).add_((3,1,7))", a: S(1, 3, 1), b: S(3, 1, 7), kinds: []error{ErrInPlace},
			msg: "broadcast: cannot write the result of shapes (1,3,1) and (3,1,7) in place into a: the expanded size 1 of a must match the existing size 7 of b at non-singleton dimension 2 (the result would be (3,3,7))"},
	}
	runInPlace(t, cases)
}

func runInPlace(t *testing.T, cases []binaryCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := InPlace(tc.a, tc.b)
			l, layErr := InPlaceLayout(tc.a, tc.b)
			if tc.want == nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, append(bothShapes(tc.kinds, tc.a, tc.b), tc.mentions...)...)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.NoError(t, layErr)
			require.Equal(t, tc.want, l.Out)
			require.True(t, l.Out.Equal(tc.a))
			sa, _ := tc.a.Strides()
			for d := range sa {
				if tc.a[d] == 1 {
					sa[d] = 0
				}
			}
			require.Equal(t, sa, l.Strides[0])
		})
	}
}

func TestSeedPrimitivShapes(t *testing.T) {
	// 3.2.1: shapes of a scalar, a column vector, a matrix and an image.
	valid := []struct {
		s      BatchShape
		str    string
		volume int
		size   int
	}{
		{B(1), "{}x1", 1, 1},
		{B(1, 3), "{3}x1", 3, 3},
		{B(1, 3, 2), "{3,2}x1", 6, 6},
		{B(1, 256, 256, 3), "{256,256,3}x1", 196608, 196608},
		{B(64), "{}x64", 1, 64},
		{B(64, 3), "{3}x64", 3, 192},
		{B(64, 3, 2), "{3,2}x64", 6, 384},
		{B(64, 256, 256, 3), "{256,256,3}x64", 196608, 12582912},
	}
	for _, tc := range valid {
		t.Run("valid/"+tc.str, func(t *testing.T) {
			require.NoError(t, tc.s.Validate())
			require.Equal(t, tc.str, tc.s.String())
			v, err := tc.s.Volume()
			require.NoError(t, err)
			require.Equal(t, tc.volume, v)
			n, err := tc.s.Size()
			require.NoError(t, err)
			require.Equal(t, tc.size, n)
			require.NoError(t, tc.s.CheckLen(tc.size))
		})
	}

	// 3.2.1: == and != and the trailing-1 compatibility.
	eq := []struct {
		a, b BatchShape
		want bool
	}{
		{B(1, 3, 2), B(1, 3, 2), true},
		{B(1, 3, 2), B(1, 3, 3), false},
		{B(1, 3, 2), B(64, 3, 2), false},
		{B(1), B(1, 1, 1, 1, 1), true},
		{B(1, 3), B(1, 3, 1), true},
		{B(1, 3, 2), B(1, 3, 2, 1), true},
		{B(1, 1, 3), B(1, 3), false}, // leading 1s are significant
	}
	for _, tc := range eq {
		t.Run(fmt.Sprintf("equal/%v==%v", tc.a, tc.b), func(t *testing.T) {
			require.Equal(t, tc.want, tc.a.Equal(tc.b))
			require.Equal(t, tc.want, tc.b.Equal(tc.a))
		})
	}
}

type minibatchCase struct {
	name     string
	shapes   []BatchShape
	want     BatchShape
	flat     Shape   // Layout.Out
	strides  [][]int // Layout.Strides
	kinds    []error // non-nil when an error is expected
	msg      string
	mentions []string
}

func runMinibatch(t *testing.T, cases []minibatchCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Minibatch(tc.shapes...)
			gotL, l, layErr := MinibatchLayout(tc.shapes...)
			if tc.kinds != nil {
				requireCaseErr(t, err, tc.kinds, tc.msg, tc.mentions...)
				require.Equal(t, err, layErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.NoError(t, layErr)
			require.Equal(t, tc.want, gotL)
			if tc.flat != nil {
				require.Equal(t, tc.flat, l.Out)
			}
			if tc.strides != nil {
				require.Equal(t, tc.strides, l.Strides)
			}
		})
	}
}

func TestSeedPrimitivMinibatch(t *testing.T) {
	batch := []error{ErrIncompatible, ErrBatch}
	a := B(3)
	runMinibatch(t, []minibatchCase{
		// a + b with equal minibatch sizes (values 5, 7, 9).
		{name: "primitiv/{}x3+{}x3", shapes: []BatchShape{a, B(3)}, want: B(3),
			flat: S(3, 1), strides: [][]int{{1, 0}, {1, 0}}},
		// b without minibatch broadcasts (values 5, 6, 7 both ways).
		{name: "primitiv/{}x3+{}x1", shapes: []BatchShape{a, B(1)}, want: B(3),
			flat: S(3, 1), strides: [][]int{{1, 0}, {0, 0}}},
		{name: "primitiv/{}x1+{}x3", shapes: []BatchShape{B(1), a}, want: B(3),
			flat: S(3, 1), strides: [][]int{{0, 0}, {1, 0}}},
		// Different minibatch sizes, named in operand order.
		{name: "primitiv/{}x3+{}x2", shapes: []BatchShape{a, B(2)}, kinds: batch,
			msg: "broadcast: minibatch shapes {}x3 and {}x2 are incompatible: different minibatch sizes: 3 and 2 (a and b)"},
		{name: "primitiv/{}x2+{}x3", shapes: []BatchShape{B(2), a}, kinds: batch,
			msg: "broadcast: minibatch shapes {}x2 and {}x3 are incompatible: different minibatch sizes: 2 and 3 (a and b)"},
		// concat({a, b, c}): three operands, recursively (values [1,4,5], [2,4,6], [3,4,7]).
		{name: "primitiv/concat {}x3,{}x1,{}x3", shapes: []BatchShape{a, B(1), B(3)}, want: B(3),
			flat: S(3, 1), strides: [][]int{{1, 0}, {0, 0}, {1, 0}}},
		// 3.2.3 scalar operations: a {3} and b {} (values [5,6,7], [-3,-2,-1], [3,2,1]).
		{name: "primitiv/{3}+{}", shapes: []BatchShape{B(1, 3), B(1)}, want: B(1, 3),
			flat: S(1, 3), strides: [][]int{{0, 1}, {0, 0}}},
		{name: "primitiv/{}-{3}", shapes: []BatchShape{B(1), B(1, 3)}, want: B(1, 3),
			flat: S(1, 3), strides: [][]int{{0, 0}, {0, 1}}},
	})
}
