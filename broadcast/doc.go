// Package broadcast implements elementwise broadcasting for elem: the rules
// that decide whether operands of different shapes can be combined and the
// shape of the result, and plans that compute dst = a op b for such operands
// in a few kernel calls.
//
// # Shapes
//
// A [Shape] lists dimension sizes, outermost first, for data stored
// contiguously in row-major (C) order. Rank 0, written (), is a scalar with one
// element. A size may be 0 (an empty array) but never negative, and the
// product of the non-zero sizes must fit in an int.
//
// Every call takes any elem.Number element type, floats and integers; an op
// not defined on the type (OpDiv on integers) is an error wrapping [ErrOp].
//
// # Views
//
// A [View] is strided data: a shape, a stride per dim in elements (0 for a
// repeated dim, negative for a reversed one) and the data slice. [ApplyView]
// runs NUMPY broadcasting on views of a, b and dst, with the plan's stages
// (coalescing by the NumPy rule, loop order by dst's strides, kernel calls
// on blocks contiguous in every operand) and L1-sized gather/scatter tiles
// for the blocks that are not (a transposed or column view). The other
// families run on views with the same planner and rules: [CopyView] (bit
// for bit, any [Element] type: HWC to CHW images, NCHW to NHWC tensors and
// transposed matrices through the transposition kernels), [FillView],
// [ApplyUnaryView], [ApplyTernaryView], [CompareView] into a View[bool],
// [SelectView] and [ConvertView]; a rank-0 view broadcasts into every
// element of dst.
//
// # Other op families
//
// [ApplyUnary] runs a unary op (elem.UnaryOp) on an input broadcast to a
// given output shape; [ApplyTernary] (FMA, Clamp with array bounds) and
// [Select] (NumPy's where) broadcast three operands under the NUMPY rule.
// They plan per call with the same stages as a [Plan], over dst and every
// input, and run the two innermost axes as one 2-D kernel call; their errors
// follow the same contract (sentinels, every shape named, nothing written).
// Their element types are the floats, as elem's calls of those families.
//
// # Reductions, softmax and scans
//
// [ReduceSum], [ReduceProd], [ReduceMax], [ReduceMin], [ReduceMean],
// [ReduceVar], [ReduceStd], [ReduceArgMax], [ReduceArgMin], [ReduceCount],
// [ReduceAny], [ReduceAll] and [LogSumExp] reduce contiguous data over
// axes with NumPy's shapes (keepdims or not, negative axes, no axes = all);
// each output combines its values in elem's canonical order, so the bits
// are the same on every CPU. [Softmax] and [LogSoftmax] run along one axis
// with the maximum subtracted; [CumSum] and [CumProd] scan along one axis
// with the plain loop's bits.
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
// # Layouts
//
// Every rule also has a form that returns a [Layout]: the output shape and,
// for each input, its element strides over the output dimensions, with stride
// 0 on every dimension along which that input is broadcast ([NoneLayout],
// [NumpyLayout], [PDPDLayout], [Rule.Layout], [BidirectionalLayout],
// [InPlaceLayout], [MinibatchLayout]). One stride computation serves these,
// [Shape.Strides], [Strides] and the plans alike.
//
// # Plans
//
// A [Plan] resolves a rule for two shapes once; [Run] then computes dst = a op
// b for any data of those shapes, from any number of goroutines, without
// allocating. Every rule has a plan and a one-shot call that plans on the
// stack:
//
//	rule                 plan                    run                          one shot
//	NONE, NUMPY, PDPD    NewPlan(rule, a, b)     Run, RunParallel             ApplyRule (Apply for NUMPY)
//	in place (a.op_(b))  NewInPlacePlan          RunInPlace(p, op, a, b), ... ApplyInPlace
//	minibatch            NewMinibatchPlan        Run, RunParallel             ApplyMinibatch
//	bidirectional        NewBidirectionalPlan    Copy, CopyParallel           To
//
// Shapes stay the caller's: no call keeps them or lets them escape to the
// heap (an error formats copies), so a one-shot call with shape literals,
// Apply(op, out, img, Shape{256, 256, 3}, gain, Shape{3}), allocates
// nothing; so do ApplyUnary, ApplyTernary and Select, which plan on the
// stack too.
//
// [Plan.Out] and [Plan.OutLen] give the output shape and the length dst must
// have ([Plan.OutBatch] the [BatchShape] of a minibatch result). The zero Plan
// is not a plan: running it, or a nil *Plan, returns an error wrapping
// [ErrPlan], as does running a bidirectional plan (which has no operation)
// with Run or any other with Copy.
//
// Building a plan runs these stages, in NumPy's manner:
//
//  1. Rule: the output shape, or an error, and each input placed against it
//     (right-aligned; PDPD places b at its axis).
//  2. Layout: each operand's element strides over the output dimensions,
//     dst's contiguous, an input's 0 where it repeats.
//  3. Coalesce: dimensions of size 1 are dropped, and a dimension merges into
//     the next inner one where it continues it for every operand
//     (stride[i] == size[i+1]*stride[i+1]). Real broadcasts end up with one
//     to three dimensions: (2,3,4) + (4) is a 6 x 4 block with a repeated row.
//  4. Strategy: the two innermost dimensions are the block; how it runs is
//     decided now, for each element size (1, 2, 4 and 8 bytes: the float
//     and the integer types), and stored in the plan:
//     - flat: one dimension, so the whole output is one kernel call (vv, vs
//     or sv);
//     - tiny: blocks of at most 16 elements, row by row through the plain Go
//     loops, which cost less than a kernel call there;
//     - tile: a dense block against a short repeated row, as in (n,3) *
//     (3): the row is expanded on the stack into an L1 tile a multiple of
//     the row and of every vector width long, and the block runs as one
//     flat vv op against it;
//     - 2-D: one m x n kernel call per block, its row loop inside the
//     kernel, in the row (leading stride 0), column (one value per row),
//     outer-product or dense form the strides give;
//     - copy: the op-less bidirectional plan, row copies and fills.
//  5. Execution: dimensions above the block are walked by an odometer over
//     offsets precomputed in the plan, one block per step, each calling the
//     kernels directly: the plan's checks (lengths, overlap) are made once
//     per run, not per block.
//
// Streaming: a big output is written with non-temporal stores (where the
// kernels have them) so that it does not evict the inputs from the caches.
// Whether to is decided once per plan, from the memory the whole plan streams
// through (the output and each input once), and every block of every run,
// serial or parallel, stores the same way.
//
// Parallel runs ([RunParallel], [RunInPlaceParallel], [CopyParallel]) split
// the output into parts of at least 32768 elements on whole rows of the block
// (a seek finds where each part starts), or on 64-byte-aligned column ranges
// when there are fewer rows than parts; small work runs on the calling
// goroutine alone. Every element is computed by the same kernel as in a
// serial run, so the bits are the same.
//
// Overlap: dst may be exactly an input laid out as the output (in place);
// any other shared memory is an error wrapping [ErrOverlap], decided exactly
// on the operands' strided layouts, so that interleaved but disjoint memory
// is not refused.
//
// # Errors
//
// Shapes usually come from data, so every problem is reported as an error,
// never a panic. Each error wraps one or more of the sentinel values
// ([ErrIncompatible], [ErrRank], [ErrAxis], [ErrInvalidShape],
// [ErrNegativeDim], [ErrOverflow], [ErrDataLength], [ErrInPlace], [ErrBatch],
// [ErrOp], [ErrPlan], [ErrOverlap]) for use with [errors.Is], and its message says what was wrong
// in the caller's terms: both shapes, the dimension, and both sizes, as in
//
//	broadcast: shapes (5,2,4,1) and (3,1,1) are incompatible: size 2 of a must match size 3 of b at dimension 1
//
// Dimensions in messages are counted from 0, outermost first, in the
// coordinates of the (right-aligned) result, as PyTorch does.
package broadcast
