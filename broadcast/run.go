package broadcast

import (
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
)

// Run computes dst = a op b as planned: a and b hold the data of the plan's
// input shapes, dst that of its output. On error nothing has been written.
// dst may be exactly a or b when that input has the output's layout; any
// other shared memory is an error wrapping [ErrOverlap]. A nil or zero plan,
// or a bidirectional one (which has no operation), gives an error wrapping
// [ErrPlan]. Run allocates nothing and may be called from many goroutines.
//
// On complex values (elem.Complex) the ops are Add, Sub, Mul and Div, with
// elem's bits for them; the others give an error wrapping [ErrOp].
func Run[T elem.Number | elem.Complex](p *Plan, op elem.Op, dst, a, b []T) error {
	if elemtype.IsComplex[T]() {
		if elemtype.KindOf[T]() == elemtype.Complex64 {
			return runComplex(p, op, elemtype.Recast[complex64](dst), elemtype.Recast[complex64](a), elemtype.Recast[complex64](b))
		}
		return runComplex(p, op, elemtype.Recast[complex128](dst), elemtype.Recast[complex128](a), elemtype.Recast[complex128](b))
	}
	switch elemtype.KindOf[T]() { // folds: the real call of T's own type
	case elemtype.Float32:
		return run(p, op, elemtype.Recast[float32](dst), elemtype.Recast[float32](a), elemtype.Recast[float32](b))
	case elemtype.Float64:
		return run(p, op, elemtype.Recast[float64](dst), elemtype.Recast[float64](a), elemtype.Recast[float64](b))
	case elemtype.Int8:
		if elemtype.Signed[T]() {
			return run(p, op, elemtype.Recast[int8](dst), elemtype.Recast[int8](a), elemtype.Recast[int8](b))
		}
		return run(p, op, elemtype.Recast[uint8](dst), elemtype.Recast[uint8](a), elemtype.Recast[uint8](b))
	case elemtype.Int16:
		if elemtype.Signed[T]() {
			return run(p, op, elemtype.Recast[int16](dst), elemtype.Recast[int16](a), elemtype.Recast[int16](b))
		}
		return run(p, op, elemtype.Recast[uint16](dst), elemtype.Recast[uint16](a), elemtype.Recast[uint16](b))
	case elemtype.Int32:
		if elemtype.Signed[T]() {
			return run(p, op, elemtype.Recast[int32](dst), elemtype.Recast[int32](a), elemtype.Recast[int32](b))
		}
		return run(p, op, elemtype.Recast[uint32](dst), elemtype.Recast[uint32](a), elemtype.Recast[uint32](b))
	}
	if elemtype.Signed[T]() {
		return run(p, op, elemtype.Recast[int64](dst), elemtype.Recast[int64](a), elemtype.Recast[int64](b))
	}
	return run(p, op, elemtype.Recast[uint64](dst), elemtype.Recast[uint64](a), elemtype.Recast[uint64](b))
}

// run is Run on a real type.
func run[T elem.Number](p *Plan, op elem.Op, dst, a, b []T) error {
	if err := checkRun(p, true, op, dst, a, b); err != nil {
		return err
	}
	e := newExec(p, kernel.Op(op), dst, a, b)
	e.run()
	return nil
}

// RunInPlace computes a = a op b as planned (PyTorch's a.op_(b)), for a plan
// from [NewInPlacePlan] or any plan whose output is laid out as a. Its errors
// are those of [Run] with dst being a.
func RunInPlace[T elem.Number | elem.Complex](p *Plan, op elem.Op, a, b []T) error {
	return Run(p, op, a, a, b)
}

// Copy materialises a bidirectional plan from [NewBidirectionalPlan]: it
// writes the broadcast of in into dst, of length p.OutLen(). dst must not
// share memory with in ([ErrOverlap]); a plan with an operation gives an error
// wrapping [ErrPlan]. On error nothing has been written.
func Copy[T elem.Number](p *Plan, dst, in []T) error {
	if err := checkRun(p, false, 0, dst, in, nil); err != nil {
		return err
	}
	e := newExec(p, 0, dst, in, nil)
	e.run()
	return nil
}

// ApplyRule computes dst = a op b under rule, which gives dst the shape
// rule.Shape(aShape, bShape). It plans on the stack and allocates nothing.
func ApplyRule[T elem.Number | elem.Complex](rule Rule, op elem.Op, dst, a []T, aShape Shape, b []T, bShape Shape) error {
	var p Plan
	if err := p.initRule(rule, aShape, bShape); err != nil {
		return err
	}
	p.a, p.b = aShape, bShape // for Run's messages; p stays on the stack
	return Run(&p, op, dst, a, b)
}

// Apply computes dst = a op b under the NUMPY rule: dst has the shape
// Numpy(aShape, bShape). It is ApplyRule(RuleNumpy, ...).
func Apply[T elem.Number | elem.Complex](op elem.Op, dst, a []T, aShape Shape, b []T, bShape Shape) error {
	return ApplyRule(RuleNumpy, op, dst, a, aShape, b, bShape)
}

// ApplyInPlace computes a = a op b with PyTorch's in-place rule (a.add_(b)):
// b broadcasts to a's shape, which must not change.
func ApplyInPlace[T elem.Number | elem.Complex](op elem.Op, a []T, aShape Shape, b []T, bShape Shape) error {
	var p Plan
	if err := p.initInPlace(aShape, bShape); err != nil {
		return err
	}
	p.a, p.b = aShape, bShape
	return RunInPlace(&p, op, a, b)
}

// ApplyMinibatch computes dst = a op b with primitiv's minibatch rule over
// batch-major data; dst has the shape Minibatch(aShape, bShape).
func ApplyMinibatch[T elem.Number | elem.Complex](op elem.Op, dst, a []T, aShape BatchShape, b []T, bShape BatchShape) error {
	var p Plan
	if err := p.initMinibatch(aShape, bShape); err != nil {
		return err
	}
	p.batch = [2]BatchShape{aShape, bShape}
	return Run(&p, op, dst, a, b)
}

// To materialises the bidirectional broadcast of in (of shape inShape) to
// target, numpy.broadcast_to followed by a copy: it writes the result into
// dst and returns its shape, Bidirectional(inShape, target), which may differ
// from target. [NewBidirectionalPlan] gives the length dst needs, and a plan
// to run many times.
func To[T elem.Number](dst, in []T, inShape, target Shape) (Shape, error) {
	var p Plan
	if err := p.initCopy(inShape, target); err != nil {
		return nil, err
	}
	p.a, p.b = inShape, target
	if err := Copy(&p, dst, in); err != nil {
		return nil, err
	}
	return p.outShape(), nil
}

// checkRun validates a run of p before anything is written: withOp for Run,
// without for Copy, whose plan has one input.
func checkRun[T elem.Number](p *Plan, withOp bool, op elem.Op, dst, a, b []T) error {
	if err := p.usable(withOp); err != nil {
		return err
	}
	if withOp && !op.Valid() {
		return newError(errs(ErrOp), "invalid operation %v", op)
	}
	if withOp && !elem.DefinedOn[T](op) {
		return newError(errs(ErrOp), "%v is not defined on %T", op, T(0))
	}
	return checkOperands(p, dst, a, b)
}

// checkOperands validates the lengths of a run's operands and their
// sharing of memory.
func checkOperands[T any](p *Plan, dst, a, b []T) error {
	in := [2][]T{a, b}
	for k := range p.inputs {
		if len(in[k]) != p.length[k+1] {
			return p.lengthError(p.inputName(k), len(in[k]), p.length[k+1])
		}
	}
	if len(dst) != p.length[0] {
		return p.lengthError("dst", len(dst), p.length[0])
	}
	for k := range p.inputs {
		if conflict(p, dst, in[k], k+1) {
			name := p.inputName(k)
			return newError(errs(ErrOverlap), "dst shares memory with %s %s without being exactly %s", name, p.describe(name), name)
		}
	}
	return nil
}

// usable returns the error for running p with (withOp) or without an
// operation, if it cannot be.
func (p *Plan) usable(withOp bool) error {
	switch {
	case p == nil:
		return newError(errs(ErrPlan), "the plan is nil")
	case p.form == formInvalid:
		return newError(errs(ErrPlan),
			"the zero Plan is not a plan: build one with NewPlan, NewInPlacePlan, NewMinibatchPlan or NewBidirectionalPlan")
	case withOp && p.form == formCopy:
		return newError(errs(ErrPlan), "the bidirectional plan of %s has no operation: run it with Copy", p.describe("input"))
	case !withOp && p.form != formCopy:
		return newError(errs(ErrPlan), "the plan of %s and %s has an operation: run it with Run", p.describe("a"), p.describe("b"))
	}
	return nil
}

// conflict reports whether dst, laid out as the output of p, shares memory
// with x, laid out as input k, without being exactly x. Slices that share no
// byte, the usual case, take two comparisons; the others go to alias with the
// operands' exact layouts.
func conflict[T any](p *Plan, dst, x []T, k int) bool {
	d0, x0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	var zero T
	elemSize := unsafe.Sizeof(zero)
	if d0+uintptr(len(dst))*elemSize <= x0 || x0+uintptr(len(x))*elemSize <= d0 {
		return false
	}
	size, stride := p.axes()
	return alias.Conflict(
		alias.Span{Start: d0, Elem: int(elemSize), Size: size, Stride: stride[0]},
		alias.Span{Start: x0, Elem: int(elemSize), Size: size, Stride: stride[k]})
}

// inputName names input k in messages.
func (p *Plan) inputName(k int) string {
	if p.form == formCopy {
		return "input"
	}
	return [2]string{"a", "b"}[k]
}

// lengthError reports a data slice, named name, whose length got is not want.
func (p *Plan) lengthError(name string, got, want int) error {
	shapes := p.describe("a") + ", b " + p.describe("b")
	if p.form == formCopy {
		shapes = p.describe("input") + ", target " + p.describe("target")
	}
	first := "a "
	if p.form == formCopy {
		first = "input "
	}
	return newError(errs(ErrDataLength), "%s has %d elements but %s needs %d (%s%s)",
		name, got, p.describe(name), want, first, shapes)
}

// describe names the shape of operand name ("a", "b", "input", "target" or
// "dst") in messages.
func (p *Plan) describe(name string) string {
	switch {
	case name == "dst":
		return "the output shape " + p.Out().String()
	case p.form == formMinibatch && name == "a":
		return "minibatch shape " + p.batch[0].String()
	case p.form == formMinibatch:
		return "minibatch shape " + p.batch[1].String()
	case name == "a" || name == "input":
		return "shape " + p.a.String()
	}
	return "shape " + p.b.String()
}
