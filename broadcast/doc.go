// Package broadcast implements the shape side of elementwise broadcasting:
// the rules that decide whether operands of different shapes can be combined,
// the shape of the result, and, for a planner, where each operand's elements
// sit relative to the result.
//
// # Shapes
//
// A [Shape] lists dimension sizes, outermost first, for data stored
// contiguously in row-major (C) order. Rank 0, written (), is a scalar with one
// element. A size may be 0 (an empty array) but never negative, and the
// product of the non-zero sizes must fit in an int.
//
// # Rules
//
//   - [None]: no broadcasting; the shapes must be equal, rank included.
//   - [Numpy]: NumPy/PyTorch/OpenVINO "numpy" broadcasting for any number of
//     shapes: right-align, pad the shorter with leading 1s, and each aligned
//     pair must be equal or contain a 1. A 0 broadcasts with 1 to 0 and is
//     incompatible with any size above 1.
//   - [PDPD]: OpenVINO's PDPD (PaddlePaddle) rule: only b broadcasts, onto a,
//     starting at a given axis; the result is always a's shape.
//   - [Bidirectional]: broadcast an array to a target shape with the numpy
//     rule; the result may be larger than the target.
//   - [InPlace]: PyTorch in-place semantics (a.add_(b)): the numpy result must
//     be exactly a's shape.
//   - [Minibatch]: primitiv's rule for [BatchShape] values, which carry a
//     per-sample shape and a minibatch size.
//
// # Planning
//
// Every rule also has a form that returns a [Layout]: the output shape and,
// for each input, its element strides over the output dimensions, with stride
// 0 on every dimension along which that input is broadcast ([NumpyLayout],
// [Rule.Layout], [BidirectionalLayout], [InPlaceLayout], [MinibatchLayout]).
// A planner needs nothing else from the rules.
//
// # Errors
//
// Shapes usually come from data, so every problem is reported as an error,
// never a panic. Each error wraps one or more of the sentinel values
// ([ErrIncompatible], [ErrRank], [ErrAxis], [ErrInvalidShape],
// [ErrNegativeDim], [ErrOverflow], [ErrDataLength], [ErrInPlace], [ErrBatch],
// [ErrOverlap]) for use with [errors.Is], and its message says what was wrong
// in the caller's terms: both shapes, the dimension, and both sizes, as in
//
//	broadcast: shapes (5,2,4,1) and (3,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 1
//
// Dimensions in messages are counted from 0, outermost first, in the
// coordinates of the (right-aligned) result, as PyTorch does.
package broadcast
