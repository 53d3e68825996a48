package main

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/bufplace"
)

// benchOp is an operation -ops names: a binary op (elem.Op), timed through
// kernelCall in the kinds vv, vs and sv, or an op of another family
// (elem.UnaryOp, CompareOp, TernaryOp, BitOp, ShiftOp, or select), timed
// through its own op-valued calls in the kinds it has.
type benchOp struct {
	name string
	op   any // elem.Op, elem.UnaryOp, ..., or selectOp
	// kinds maps each kind the op has to the arrays its call moves.
	kinds map[string]arrays
}

// arrays counts the arrays a call reads and writes: vectors of the element
// type, and []bool masks.
type arrays struct{ vectors, masks int }

// selectOp stands for elem.Select (vv) and elem.SelectScalar (vs).
type selectOp struct{}

// The kinds beyond the binary ones.
const (
	kindUnary   = "v"   // dst = op a
	kindTernary = "vvv" // dst = op(a, b, c)
)

// benchOps are every op elembench can time, in -ops order.
func benchOps() []benchOp {
	binary := map[string]arrays{"vv": {3, 0}, "vs": {2, 0}, "sv": {2, 0}}
	var ops []benchOp
	for _, op := range elem.Ops() {
		ops = append(ops, benchOp{op.String(), op, binary})
	}
	for _, op := range elem.UnaryOps() {
		ops = append(ops, benchOp{op.String(), op, map[string]arrays{kindUnary: {2, 0}}})
	}
	for _, op := range elem.TernaryOps() {
		ops = append(ops, benchOp{op.String(), op, map[string]arrays{kindTernary: {4, 0}}})
	}
	for _, op := range elem.CompareOps() {
		ops = append(ops, benchOp{op.String(), op, map[string]arrays{"vv": {2, 1}, "vs": {1, 1}}})
	}
	ops = append(ops, benchOp{"select", selectOp{}, map[string]arrays{"vv": {3, 1}, "vs": {2, 1}}})
	for _, op := range elem.BitOps() {
		ops = append(ops, benchOp{op.String(), op, map[string]arrays{"vv": {3, 0}}})
	}
	for _, op := range elem.ShiftOps() {
		ops = append(ops, benchOp{op.String(), op, map[string]arrays{"vs": {2, 0}}})
	}
	return ops
}

// definedOn reports whether o is defined on the element type t.
func (o benchOp) definedOn(t string) bool {
	return elemTypes[t].defined(o.op)
}

// definedOn reports whether op, one of benchOp.op's types, is defined on T.
func definedOn[T elem.Number](op any) bool {
	switch op := op.(type) {
	case elem.Op:
		return elem.DefinedOn[T](op)
	case elem.UnaryOp:
		return elem.UnaryDefinedOn[T](op)
	case elem.TernaryOp:
		return elem.TernaryDefinedOn[T](op)
	case elem.CompareOp:
		return elem.CompareDefinedOn[T](op)
	case selectOp:
		return true
	}
	switch any(T(0)).(type) { // the bitwise and shift ops: integers
	case float32, float64:
		return false
	}
	return true
}

// bytes is what a call of kind on n elements of t reads and writes.
func (o benchOp) bytes(t, kind string, n int) int64 {
	a := o.kinds[kind]
	return int64(a.vectors)*int64(n)*elemSize(t) + int64(a.masks*n)
}

// familyBufs allocates and fills the buffers of a non-binary call: three
// vectors at bufplace's offsets, a fourth for the ternary ops, and a mask.
func familyBufs[T elem.Number](n int) (dst, a, b, c []T, mask []bool) {
	bufs := bufplace.Three[T](n)
	fill(bufs[0], bufs[1])
	c, mask = make([]T, n), make([]bool, n)
	for i := range c {
		c[i], mask[i] = bufs[0][i]+bufs[1][i], i%3 == 0
	}
	return bufs[2], bufs[0], bufs[1], c, mask
}

// familyCall returns the call of the op o of the unary, ternary, compare or
// select family and kind on n elements of T.
func familyCall[T elem.Number](o benchOp, kind string, n int) func() {
	dst, a, b, c, mask := familyBufs[T](n)
	s := b[0]
	switch op := o.op.(type) {
	case elem.UnaryOp:
		return func() { elem.ApplyUnary(op, dst, a) }
	case elem.TernaryOp:
		return func() { elem.ApplyTernary(op, dst, a, b, c) }
	case elem.CompareOp:
		if kind == "vs" {
			return func() { elem.CompareScalar(op, mask, a, s) }
		}
		return func() { elem.Compare(op, mask, a, b) }
	case selectOp:
		if kind == "vs" {
			return func() { elem.SelectScalar(dst, mask, a, s) }
		}
		return func() { elem.Select(dst, mask, a, b) }
	}
	panic("elembench: " + o.name + " is not defined on the type") // definedOn filtered
}

// intFamilyCall returns the call of the non-binary op o and kind on n
// elements of the integer type T: the bitwise and shift ops beside
// familyCall's.
func intFamilyCall[T elem.Integer](o benchOp, kind string, n int) func() {
	switch op := o.op.(type) {
	case elem.BitOp:
		dst, a, b, _, _ := familyBufs[T](n)
		return func() { elem.ApplyBitwise(op, dst, a, b) }
	case elem.ShiftOp:
		dst, a, _, _, _ := familyBufs[T](n)
		return func() { elem.ApplyShift(op, dst, a, 3) }
	}
	return familyCall[T](o, kind, n)
}
