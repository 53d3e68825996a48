package broadcast

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMinibatchEdges(t *testing.T) {
	inc := []error{ErrIncompatible}
	batch := []error{ErrIncompatible, ErrBatch}
	invalid := []error{ErrInvalidShape}
	neg := []error{ErrInvalidShape, ErrNegativeDim}
	runMinibatch(t, []minibatchCase{
		{name: "no shapes", shapes: nil, want: B(1), flat: S(1, 1), strides: [][]int{}},
		{name: "one shape", shapes: []BatchShape{B(4, 2, 3)}, want: B(4, 2, 3), flat: S(4, 6), strides: [][]int{{6, 1}}},
		{name: "{}x1+{}x1", shapes: []BatchShape{B(1), B(1)}, want: B(1), flat: S(1, 1)},

		// Dims equal modulo trailing 1s; the result is trimmed.
		{name: "{3,1}x1+{3}x2", shapes: []BatchShape{B(1, 3, 1), B(2, 3)}, want: B(2, 3),
			flat: S(2, 3), strides: [][]int{{0, 1}, {3, 1}}},
		{name: "{3,2,1,1}x5+{3,2}x5", shapes: []BatchShape{B(5, 3, 2, 1, 1), B(5, 3, 2)}, want: B(5, 3, 2)},
		{name: "{1,3}+{3}", shapes: []BatchShape{B(1, 1, 3), B(1, 3)}, kinds: inc,
			msg: "broadcast: minibatch shapes {1,3}x1 and {3}x1 are incompatible: size 1 of a must match size 3 of b at dimension 0 (only a scalar {} broadcasts over dims)"},
		{name: "{2,3}+{3,2}", shapes: []BatchShape{B(1, 2, 3), B(1, 3, 2)}, kinds: inc,
			mentions: []string{"size 2 of a must match size 3 of b at dimension 0"}},
		{name: "{3}+{3,2}", shapes: []BatchShape{B(1, 3), B(1, 3, 2)}, kinds: inc,
			mentions: []string{"size 1 of a must match size 2 of b at dimension 1"}},
		// primitiv does not broadcast a 1 inside dims, only the whole-scalar case.
		{name: "{3,1}+{3,4}", shapes: []BatchShape{B(1, 3, 1), B(1, 3, 4)}, kinds: inc},

		// Scalars broadcast against any dims; {1,1} is a scalar.
		{name: "{1,1}x2+{4,5}x1", shapes: []BatchShape{B(2, 1, 1), B(1, 4, 5)}, want: B(2, 4, 5),
			flat: S(2, 20), strides: [][]int{{1, 0}, {0, 1}}},
		{name: "{4,5}x2+{1}x2", shapes: []BatchShape{B(2, 4, 5), B(2, 1)}, want: B(2, 4, 5),
			flat: S(2, 20), strides: [][]int{{20, 1}, {1, 0}}},

		// N-ary: the running batch is the first batch above 1.
		{name: "batches 1,3,1,3", shapes: []BatchShape{B(1), B(3), B(1), B(3)}, want: B(3),
			strides: [][]int{{0, 0}, {1, 0}, {0, 0}, {1, 0}}},
		{name: "batches 1,3,2", shapes: []BatchShape{B(1), B(3), B(2)}, kinds: batch,
			msg: "broadcast: minibatch shapes {}x1, {}x3 and {}x2 are incompatible: different minibatch sizes: 3 and 2 (operand 1 and operand 2)"},
		{name: "batches 2,1,1,5", shapes: []BatchShape{B(2), B(1), B(1), B(5)}, kinds: batch,
			mentions: []string{"different minibatch sizes: 2 and 5"}},
		{name: "dims {},{3},{},{4}", shapes: []BatchShape{B(1), B(1, 3), B(1), B(1, 4)}, kinds: inc,
			msg: "broadcast: minibatch shapes {}x1, {3}x1, {}x1 and {4}x1 are incompatible: size 3 of operand 1 must match size 4 of operand 3 at dimension 0 (only a scalar {} broadcasts over dims)"},
		{name: "dims {},{3},{3,1}x4", shapes: []BatchShape{B(1), B(1, 3), B(4, 3, 1)}, want: B(4, 3),
			flat: S(4, 3), strides: [][]int{{0, 0}, {0, 1}, {3, 1}}},

		// Invalid shapes.
		{name: "zero dim", shapes: []BatchShape{B(1, 0), B(1)}, kinds: invalid,
			msg: "broadcast: minibatch shape {0}x1 of a is invalid: size 0 at dimension 0 is not allowed in a minibatch shape"},
		{name: "negative dim", shapes: []BatchShape{B(1), B(1, 3, -2)}, kinds: neg,
			msg: "broadcast: minibatch shape {3,-2}x1 of b is invalid: size -2 at dimension 1 is negative"},
		{name: "batch 0", shapes: []BatchShape{B(0, 3), B(1, 3)}, kinds: invalid,
			msg: "broadcast: minibatch shape {3}x0 of a is invalid: minibatch size 0 must be at least 1"},
		{name: "zero value", shapes: []BatchShape{{}}, kinds: invalid, mentions: []string{"{}x0 of operand 0"}},
		{name: "negative batch", shapes: []BatchShape{B(1, 3), B(-2, 3)}, kinds: invalid, mentions: []string{"minibatch size -2"}},
		{name: "overflowing dims", shapes: []BatchShape{B(1, huge, huge)}, kinds: []error{ErrOverflow}},
		{name: "overflowing batch", shapes: []BatchShape{B(huge, huge)}, kinds: []error{ErrOverflow}},
		{name: "overflowing result", shapes: []BatchShape{B(1, huge), B(huge)}, kinds: []error{ErrOverflow},
			mentions: []string{"the broadcast result " + B(huge, huge).String()}},
	})
}

func TestBatchShapeMethods(t *testing.T) {
	s := B(4, 3, 2, 1)
	require.Equal(t, "{3,2,1}x4", s.String())
	require.False(t, s.IsScalar())
	require.True(t, B(7).IsScalar())
	require.True(t, B(7, 1, 1).IsScalar())
	require.False(t, B(7, 1, 2).IsScalar())
	require.True(t, BatchShape{Dims: nil, Batch: 2}.Equal(B(2, 1)))

	flat, err := s.Flat()
	require.NoError(t, err)
	require.Equal(t, S(4, 6), flat)
	require.NoError(t, s.CheckLen(24))
	err = s.CheckLen(6)
	requireErr(t, err, []error{ErrDataLength}, "{3,2,1}x4", "6", "24")
	requireOnly(t, err, ErrDataLength)
	require.EqualError(t, err, "broadcast: data has 6 elements but minibatch shape {3,2,1}x4 needs 24")

	bad := B(0, 3)
	require.ErrorIs(t, bad.Validate(), ErrInvalidShape)
	_, err = bad.Flat()
	require.ErrorIs(t, err, ErrInvalidShape)
	_, err = bad.Size()
	require.ErrorIs(t, err, ErrInvalidShape)
	require.ErrorIs(t, bad.CheckLen(0), ErrInvalidShape)
	require.EqualError(t, bad.Validate(), "broadcast: minibatch shape {3}x0 is invalid: minibatch size 0 must be at least 1")
}
