// Package asm is the generator-side library of elem: the table of operations,
// element types and kernel kinds that drives every back end, and the arm64
// encoder that the Go assembler's missing vector instructions need. Only the
// generator (./gen) imports it, so users of elem never compile it.
package asm

import (
	"strconv"
	"strings"
)

// Op is one elementwise binary operation. Value is the op argument that every
// generated kernel receives and the value of the matching elem.Op constant.
type Op struct {
	Name  string // lower case, as in kernel names and comments: "add"
	Value int
	// Expr is the Go expression of the operation on operands {x} and {y}:
	// the scalar code that the generic kernels run and every other kernel
	// must match.
	Expr string
	// ScalarFirst is whether elem exports a named call with the scalar as
	// the first operand (ScalarSub). For the commutative ops it would differ
	// from the other order only in NaN payloads, so ScalarApply covers them.
	ScalarFirst bool
}

// Ops lists the operations in elem.Op order.
var Ops = []Op{
	{Name: "add", Value: 0, Expr: "{x} + {y}"},
	{Name: "sub", Value: 1, Expr: "{x} - {y}", ScalarFirst: true},
	{Name: "mul", Value: 2, Expr: "{x} * {y}"},
	{Name: "div", Value: 3, Expr: "{x} / {y}", ScalarFirst: true},
	{Name: "min", Value: 4, Expr: "min({x}, {y})"},
	{Name: "max", Value: 5, Expr: "max({x}, {y})"},
}

// Title is the name as it starts an exported Go identifier: "Add".
func (o Op) Title() string { return strings.ToUpper(o.Name[:1]) + o.Name[1:] }

// ExprOf is Expr with its operands replaced by the Go expressions x and y.
func (o Op) ExprOf(x, y string) string {
	return strings.NewReplacer("{x}", x, "{y}", y).Replace(o.Expr)
}

// Type is an element type of the kernels.
type Type struct {
	GoName string // "float32"
	Bits   int    // 32 or 64: the suffix of kernel names, vv32AVX2
	Size   int    // bytes per element
}

// Types lists the element types.
var Types = []Type{
	{GoName: "float32", Bits: 32, Size: 4},
	{GoName: "float64", Bits: 64, Size: 8},
}

// Kind is the operand shape of a kernel. Every kernel is two-dimensional: for
// r < m and j < n it computes dst[r*ldd+j] = x op y, where an operand that is
// Streamed contributes a[r*lda+j] and one that is not contributes a[r*lda], one
// value per row. One row (m = 1) is the flat vector or scalar form.
type Kind struct {
	Name      string // "vv", "vs" or "sv": the prefix of kernel names
	AStreamed bool   // a is a row of n values; otherwise one value per row
	BStreamed bool   // likewise for b
}

// Kinds lists the kernel kinds. The per-row value of sv is the first operand
// of the operation: operands are never swapped, because NaN payloads and min,
// max on some architectures depend on their order.
var Kinds = []Kind{
	{Name: "vv", AStreamed: true, BStreamed: true},
	{Name: "vs", AStreamed: true, BStreamed: false},
	{Name: "sv", AStreamed: false, BStreamed: true},
}

// Signature is the Go signature shared by every kernel stub on every
// architecture, for element type t. Strides are in elements.
func Signature(t Type) string {
	p := "*" + t.GoName
	return "func(op, m, n int, dst " + p + ", ldd int, a " + p + ", lda int, b " + p + ", ldb int)"
}

// KernelName is the name of the stub of kind k on type t for implementation
// impl ("AVX2", "AVX512", "NEON").
func KernelName(k Kind, t Type, impl string) string {
	return k.Name + strconv.Itoa(t.Bits) + impl
}
