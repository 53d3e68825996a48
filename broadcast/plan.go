package broadcast

import (
	"math"

	"github.com/simdkit/elem/internal/coalesce"
	"github.com/simdkit/elem/internal/nditer"
)

// The capacities of a plan's loop nest.
const (
	// maxOperands is how many operands a nest describes: dst and up to
	// three inputs.
	maxOperands = nditer.Operands
	// inlineAxes is how many coalesced axes a Plan holds without a heap
	// allocation; real broadcasts have one to three.
	inlineAxes = 6
	// maxAxes bounds the rank of every coalesced nest: each kept axis has a
	// size of at least 2, so more than 63 of them would count more elements
	// than an int holds.
	maxAxes = 64
	// scratchAxes is the output rank up to which planning, before
	// coalescing, needs no heap allocation.
	scratchAxes = 16
)

// form says what a plan computes and which calls run it.
type form uint8

const (
	formInvalid   form = iota // the zero Plan
	formBinary                // dst = a op b under a Rule: Run
	formInPlace               // a = a op b, PyTorch's a.op_(b): Run or RunInPlace
	formMinibatch             // dst = a op b under primitiv's minibatch rule: Run
	formCopy                  // dst = the bidirectional broadcast of one input: Copy
)

// Plan is a broadcast resolved once into kernel calls, in stages: the rule
// gives the output shape and places each input against it; the layout gives
// every operand's strides over the output (stride 0 where it repeats);
// coalescing drops dimensions of size 1 and merges contiguous ones into a
// short loop nest; the strategy, chosen here for each element size, says how
// the two innermost axes (the block) become kernel calls; and the executor
// walks the outer axes with an odometer, one block per step. See the package
// documentation.
//
// Build a Plan with [NewPlan], [NewInPlacePlan], [NewMinibatchPlan] or
// [NewBidirectionalPlan]; the zero Plan is not a plan, and running it (or a
// nil *Plan) returns an error wrapping [ErrPlan]. A Plan is immutable after
// it is built and safe for concurrent use; running it allocates nothing.
//
// The input shapes are the plan's own copies in a plan from a constructor;
// a one-shot call (Apply, ...) plans on its stack and points them at the
// caller's shapes itself after planning, for its messages: the planning
// functions take the shapes as arguments and keep none of them, so that
// the caller's shapes do not escape to the heap.
type Plan struct {
	form     form
	rule     Rule                // formBinary: the rule, for the output shape and messages
	a, b     Shape               // the input shapes (formCopy: the input and the target)
	batch    [2]BatchShape       // formMinibatch: the input shapes
	out      Shape               // the output shape; nil in one-shot plans, which recompute it for messages
	loops                        // the coalesced nest
	block    block               // the two innermost axes
	strategy [elemSizes]strategy // by element size: see sizeIndex
	stream   [elemSizes]bool     // by element size: non-temporal stores for the whole plan
}

// loops is a coalesced loop nest over an output and its inputs' data, all
// contiguous row-major arrays: the element counts and, per axis, the size
// and every operand's stride (0 where it repeats). Plans and the N-ary
// calls build one with lay.
type loops struct {
	inputs int // 1 to 3
	length [maxOperands]int
	rank   int                          // coalesced axes, at least 1
	size   [inlineAxes]int              // the nest, outermost axis first, when rank <= inlineAxes
	stride [maxOperands][inlineAxes]int // per operand, dst first
	wide   *nest                        // the nest when rank > inlineAxes
}

// nest is a loop nest too deep to hold inline.
type nest struct {
	size   []int
	stride [maxOperands][]int
}

// axes returns the coalesced nest: sizes, outermost first, and each
// operand's strides.
func (l *loops) axes() (size []int, stride [maxOperands][]int) {
	if l.wide != nil {
		return l.wide.size, l.wide.stride
	}
	for k := range stride {
		stride[k] = l.stride[k][:l.rank]
	}
	return l.size[:l.rank], stride
}

// NewPlan resolves rule for operands of shapes a and b. [Run] then computes
// dst = a op b with dst of shape p.Out().
func NewPlan(rule Rule, a, b Shape) (*Plan, error) {
	p := &Plan{}
	if err := p.initRule(rule, a, b); err != nil {
		return nil, err
	}
	return p.keep(a, b), nil
}

// NewInPlacePlan resolves PyTorch's in-place a.op_(b): [RunInPlace](p, op,
// a, b) then writes the result into a, whose shape the broadcast must not
// change.
func NewInPlacePlan(a, b Shape) (*Plan, error) {
	p := &Plan{}
	if err := p.initInPlace(a, b); err != nil {
		return nil, err
	}
	return p.keep(a, b), nil
}

// NewMinibatchPlan resolves primitiv's minibatch broadcast of a and b, whose
// data is batch-major. [Run] then computes dst of shape Minibatch(a, b),
// which [Plan.OutBatch] returns.
func NewMinibatchPlan(a, b BatchShape) (*Plan, error) {
	p := &Plan{}
	if err := p.initMinibatch(a, b); err != nil {
		return nil, err
	}
	p.batch = [2]BatchShape{clone(a), clone(b)}
	p.out = p.outShape()
	return p, nil
}

// NewBidirectionalPlan resolves OpenVINO's bidirectional broadcast of an
// array of shape in to target: a plan without an operation, which [Copy]
// runs to materialise the broadcast into dst of shape p.Out(), that is
// Bidirectional(in, target).
func NewBidirectionalPlan(in, target Shape) (*Plan, error) {
	p := &Plan{}
	if err := p.initCopy(in, target); err != nil {
		return nil, err
	}
	return p.keep(in, target), nil
}

// keep completes a plan from a constructor with its own copies of the
// shapes it was planned for (a minibatch plan's are in p.batch) and its
// output shape.
func (p *Plan) keep(a, b Shape) *Plan {
	p.a, p.b = a.Clone(), b.Clone()
	p.out = p.outShape()
	return p
}

func clone(s BatchShape) BatchShape { return BatchShape{Dims: s.Dims.Clone(), Batch: s.Batch} }

// Out returns the output shape (for a minibatch plan, the flat (Batch,
// Volume) view of the result; see [Plan.OutBatch]). The zero Plan and a nil
// *Plan have none.
func (p *Plan) Out() Shape {
	if p == nil {
		return nil
	}
	if p.out == nil {
		return p.outShape()
	}
	return p.out.Clone()
}

// OutBatch returns the result of a minibatch plan as a [BatchShape], and
// false for any other plan, the zero Plan and a nil *Plan.
func (p *Plan) OutBatch() (BatchShape, bool) {
	if p == nil || p.form != formMinibatch {
		return BatchShape{}, false
	}
	out, _ := Minibatch(p.batch[0], p.batch[1])
	return out, true
}

// OutLen returns the number of output elements: the length dst must have;
// 0 for the zero Plan and a nil *Plan, which cannot run.
func (p *Plan) OutLen() int {
	if p == nil {
		return 0
	}
	return p.length[0]
}

// outShape computes the output shape from the plan's input shapes.
func (p *Plan) outShape() Shape {
	var out Shape
	switch p.form {
	case formMinibatch:
		res, _ := Minibatch(p.batch[0], p.batch[1])
		out, _ = res.Flat()
	case formCopy:
		out, _ = Bidirectional(p.a, p.b)
	case formBinary, formInPlace:
		out, _ = p.rule.Shape(p.a, p.b)
	}
	return out
}

// initRule plans rule for a and b. It allocates nothing unless the shapes
// are bad or of rank above scratchAxes.
func (p *Plan) initRule(rule Rule, a, b Shape) error {
	p.form, p.rule = formBinary, rule
	in := [2]placed{{shape: a}, {shape: b}}
	switch rule.kind {
	case kindNumpy:
		return p.initNumpy(in[:], func() error { _, err := Numpy(a, b); return err })
	case kindPDPD:
		start, tb, err := pdpdWindow(a, b, rule.axis)
		if err != nil {
			return err
		}
		in[1] = placed{shape: tb, pad: len(a) - start - len(tb)}
	default:
		if !valid(a) || !a.Equal(b) || !fits(a) {
			_, err := None(a, b)
			return err
		}
	}
	p.build(a, in[:])
	return nil
}

// initInPlace plans PyTorch's a.op_(b): the NUMPY plan of a and b, whose
// result must be a's shape.
func (p *Plan) initInPlace(a, b Shape) error {
	p.form, p.rule = formInPlace, RuleNumpy
	in := [2]placed{{shape: a}, {shape: b}}
	return p.initNumpy(in[:], func() error { _, err := InPlaceShape(a, b); return err })
}

// initMinibatch plans a and b as their flat (Batch, Volume) views, which
// broadcast under NUMPY exactly as primitiv's rule allows once the rule
// itself has been checked. It allocates nothing unless the shapes are bad.
func (p *Plan) initMinibatch(a, b BatchShape) error {
	va, okA := count(a.Dims)
	vb, okB := count(b.Dims)
	valid := okA && okB && a.Batch >= 1 && b.Batch >= 1 && va > 0 && vb > 0
	dimsOK := a.IsScalar() || b.IsScalar() || sameDims(a.Dims, b.Dims)
	batchOK := a.Batch == b.Batch || a.Batch == 1 || b.Batch == 1
	if !valid || !dimsOK || !batchOK {
		_, err := Minibatch(a, b)
		return err
	}
	p.form = formMinibatch
	fa, fb := [2]int{a.Batch, va}, [2]int{b.Batch, vb}
	in := [2]placed{{shape: fa[:]}, {shape: fb[:]}}
	return p.initNumpy(in[:], func() error { _, err := Minibatch(a, b); return err })
}

// initCopy plans the bidirectional broadcast of in to target.
func (p *Plan) initCopy(in, target Shape) error {
	p.form = formCopy
	shapes := [2]placed{{shape: in}, {shape: target}}
	return p.initNumpy(shapes[:], func() error { _, err := Bidirectional(in, target); return err })
}

// initNumpy plans the NUMPY broadcast of right-aligned inputs; for a copy
// plan the second shape only shapes the output, and for an in-place plan the
// output must be the first input's shape. Where the shapes break the rule,
// it returns the error of fail, which computes it on copies of the shapes,
// so that only that path keeps them.
func (p *Plan) initNumpy(in []placed, fail func() error) error {
	rank := 0
	for _, x := range in {
		if !valid(x.shape) {
			return fail()
		}
		rank = max(rank, len(x.shape))
	}
	var outBuf [scratchAxes]int
	out := outBuf[:min(rank, scratchAxes)]
	if rank > scratchAxes {
		out = make([]int, rank)
	}
	shapes := [2]Shape{in[0].shape, in[1].shape}
	if d, _, _ := numpyInto(out, shapes[:]); d >= 0 {
		return fail()
	}
	if !fits(out) || p.form == formInPlace && !Shape(out).Equal(in[0].shape) {
		return fail()
	}
	if p.form == formCopy {
		in = in[:1]
	}
	p.build(out, in)
	return nil
}

// valid reports whether s has no negative size, as Shape.Validate checks,
// without keeping s. Overflow is checked once, on the output, whose element
// count bounds every input's.
func valid(s Shape) bool {
	for _, d := range s {
		if d < 0 {
			return false
		}
	}
	return true
}

// fits reports whether the element count of s, which has no negative size,
// fits in an int.
func fits(s []int) bool {
	_, ok := count(s)
	return ok
}

// elements is the element count of a shape known to be valid.
func elements(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// build runs the layout and coalescing stages for the output shape out and
// the placed inputs, and chooses the strategy.
func (p *Plan) build(out []int, in []placed) {
	p.lay(out, in)
	p.choose()
}

// lay runs the layout and coalescing stages for the output shape out and
// the placed inputs (one to three), which broadcast to it.
func (l *loops) lay(out []int, in []placed) {
	var sizeBuf [scratchAxes]int
	var strideBuf [maxOperands][scratchAxes]int
	size := sizeBuf[:]
	var stride [maxOperands][]int
	for k := range stride {
		stride[k] = strideBuf[k][:]
	}
	if len(out) > scratchAxes {
		size = make([]int, len(out))
		for k := range stride {
			stride[k] = make([]int, len(out))
		}
	}
	size = size[:len(out)]
	copy(size, out)
	ops := 1 + len(in)
	stridesInto(stride[0][:len(out)], out, 0, true)
	l.length[0] = elements(out)
	for k, x := range in {
		stridesInto(stride[k+1][:len(out)], x.shape, x.pad, true)
		l.length[k+1] = elements(x.shape)
	}
	for k := range ops {
		stride[k] = stride[k][:len(out)]
	}
	rank := coalesce.Nest(size, stride[:ops])
	if rank == 0 { // a scalar: one element of each operand
		rank, size = 1, size[:1]
		size[0] = 1
		for k := range ops {
			stride[k] = stride[k][:1]
			stride[k][0] = 1
		}
	}
	l.inputs, l.rank = len(in), rank
	if rank > inlineAxes {
		l.wide = &nest{size: append([]int(nil), size[:rank]...)}
		for k := range l.wide.stride { // operands past ops stay 0, as inline
			l.wide.stride[k] = make([]int, rank)
			if k < ops {
				copy(l.wide.stride[k], stride[k])
			}
		}
	} else {
		copy(l.size[:], size[:rank])
		for k := range ops {
			copy(l.stride[k][:], stride[k][:rank])
		}
	}
}

// streamed is the memory, in elements, that running the plan streams
// through: the output and each input once.
func (p *Plan) streamed() int {
	n := 0
	for _, l := range p.length[:1+p.inputs] {
		n = min(n+l, math.MaxInt/8)
	}
	return n
}
