package main

import (
	"fmt"
	"strings"

	"github.com/simdkit/elem/gen/asm"
)

// This file writes package elem's ops_generated.go: each family's op type,
// constants, names and list, and the named calls (Add, AddScalar,
// ScalarSub, ...), each with an inline Go path for short slices so that a
// call on a few elements costs no more than the loop it replaces.

// familyDocs documents each family's op type in package elem.
var familyDocs = map[*asm.Family]string{
	asm.Binary:  "Op is an elementwise binary operation, for code that picks the operation at\nrun time (Apply, ApplyScalar, ScalarApply, Apply2D, the broadcast package).",
	asm.Unary:   "UnaryOp is an elementwise operation on one operand, for code that picks the\noperation at run time (ApplyUnary).",
	asm.Compare: "CompareOp is an elementwise comparison, for code that picks it at run time\n(Compare, CompareScalar). Comparisons follow Go: every comparison with a NaN\nis false except !=, which is true.",
	asm.Ternary: "TernaryOp is an elementwise operation on three operands, for code that picks\nthe operation at run time (ApplyTernary).",
	asm.Bitwise: "BitOp is a bitwise operation of the integer types, for code that picks the\noperation at run time (ApplyBitwise).",
	asm.Shift:   "ShiftOp is a shift of the integer types, for code that picks it at run time\n(ApplyShift).",
}

// listFuncs names the function listing a family's ops.
var listFuncs = map[*asm.Family]string{asm.Binary: "Ops", asm.Unary: "UnaryOps", asm.Compare: "CompareOps",
	asm.Ternary: "TernaryOps", asm.Bitwise: "BitOps", asm.Shift: "ShiftOps"}

func writeElemGo(path string) error {
	g := newGoFile(path, "", "elem", "github.com/simdkit/elem/internal/kernel")
	for _, f := range asm.Families {
		if _, ok := familyDocs[f]; ok {
			writeElemFamily(g, f)
		}
		for _, o := range asm.OpsOf(f) {
			writeNamedCalls(g, o)
		}
	}
	return g.write()
}

// writeElemFamily writes a family's op type, constants and list.
func writeElemFamily(g *goFile, f *asm.Family) {
	ops := asm.OpsOf(f)
	typ := f.OpType
	g.doc(familyDocs[f])
	g.p("type %s uint8", typ)
	g.p("")
	g.p("// The %s operations.", f.Name)
	g.p("const (")
	for i, o := range ops {
		comment := o.FormulaOf(inputNames(f)...)
		if o.Doc != "" {
			comment += ": " + o.Doc
		}
		if i == 0 {
			g.p("%s %s = iota // %s", o.Const(), typ, comment)
		} else {
			g.p("%s // %s", o.Const(), comment)
		}
	}
	g.p(")")
	g.p("")
	g.p("// String returns the lower-case name of op (%q), or %s(N) for an invalid op.", ops[0].Name, typ)
	g.p("func (op %s) String() string { return kernel.%s(op).String() }", typ, typ)
	g.p("")
	g.p("// Valid reports whether op is one of the defined operations.")
	g.p("func (op %s) Valid() bool { return op < %s(kernel.Num%ss) }", typ, typ, typ)
	g.p("")
	var consts []string
	for _, o := range ops {
		consts = append(consts, o.Const())
	}
	if c := asm.Constraint(f.Types()); c == "Number" {
		var fl, in []string
		for _, o := range ops {
			fl = append(fl, fmt.Sprint(hasTypes(o, true)))
			in = append(in, fmt.Sprint(hasTypes(o, false)))
		}
		g.p("// %sOnFloats and %sOnIntegers say which ops are defined on the float and on\n// the integer types.", lowerFirst(typ), lowerFirst(typ))
		g.p("var (")
		g.p("%sOnFloats = [...]bool{%s}", lowerFirst(typ), strings.Join(fl, ", "))
		g.p("%sOnIntegers = [...]bool{%s}", lowerFirst(typ), strings.Join(in, ", "))
		g.p(")")
		g.p("")
		g.p("// DefinedOn reports whether op, a valid %s, is defined on the element type T\n// (the calls panic on the others).", typ)
		g.p("func DefinedOn[T Number](op %s) bool {", typ)
		g.p("if isFloat[T]() { return %sOnFloats[op] }", lowerFirst(typ))
		g.p("return %sOnIntegers[op]", lowerFirst(typ))
		g.p("}")
		g.p("")
	}
	g.p("// %s returns every %s operation in order.", listFuncs[f], f.Name)
	g.p("func %s() []%s { return []%s{%s} }", listFuncs[f], typ, typ, strings.Join(consts, ", "))
	g.p("")
}

// writeNamedCalls writes an op's named calls.
func writeNamedCalls(g *goFile, o asm.Op) {
	if o.Family == asm.Binary {
		writeBinaryCalls(g, o)
		return
	}
	for _, form := range o.NamedForms() {
		writeFormCall(g, o, form)
	}
}

// formParam is one input of a named call: its parameter name, and whether
// it is a slice (a vector input) or a scalar.
type formParam struct {
	name, typ string
	vector    bool
}

// formParams names the inputs of a named call: a, b, c for slices and s
// for a scalar, unless the form names them.
func formParams(o asm.Op, form asm.Form) []formParam {
	k := o.Family.FindKind(form.Kind)
	var ps []formParam
	for i, in := range o.Family.Inputs {
		p := formParam{name: in.Name, typ: in.Type, vector: k.Vector[i]}
		if !p.vector {
			p.name = "s"
		}
		if form.Params != nil {
			p.name = form.Params[i]
		}
		ps = append(ps, p)
	}
	return ps
}

// writeFormCall writes one named call of a family without inline short
// path: the contract check, then the op's kernel entry with one row.
func writeFormCall(g *goFile, o asm.Op, form asm.Form) {
	f := o.Family
	k := f.FindKind(form.Kind)
	ps := formParams(o, form)
	var sig, elems, checks, ins, args []string
	vectors := 1 // dst
	for _, p := range ps {
		if p.vector {
			sig = append(sig, fmt.Sprintf("%s []%s", p.name, p.typ))
			elems = append(elems, p.name+"[i]")
			checks = append(checks, fmt.Sprintf("!fitsAny(dst, %s)", p.name))
			ins = append(ins, fmt.Sprintf("in(%q, %s)", p.name, p.name))
			args = append(args, p.name+", 0")
			vectors++
		} else {
			sig = append(sig, fmt.Sprintf("%s %s", p.name, p.typ))
			elems = append(elems, p.name)
			args = append(args, fmt.Sprintf("[]%s{%s}, 0", p.typ, p.name))
		}
	}
	g.doc(fmt.Sprintf("%s sets dst[i] = %s.%s", form.Name, o.FormulaOf(elems...), opDoc(o)))
	g.p("func %s[T %s](dst []%s, %s) {", form.Name, asm.Constraint(o.Types), f.Out, strings.Join(sig, ", "))
	g.p("if %s { mustFit(%q, in(\"dst\", dst), %s) }", strings.Join(checks, " || "), form.Name, strings.Join(ins, ", "))
	stream := "false"
	if f.Stream {
		stream = fmt.Sprintf("kernel.StreamFlat[T](len(dst), %d)", vectors)
	}
	g.p("kernel.%s(kernel.%s, 1, len(dst), dst, 0, %s, %s)", entryName(o), k.Const(), strings.Join(args, ", "), stream)
	g.p("}")
	g.p("")
}

// opDoc is the sentence after the formula in a named call's doc comment.
func opDoc(o asm.Op) string {
	if o.Doc == "" {
		return ""
	}
	return "\n" + strings.ToUpper(o.Doc[:1]) + o.Doc[1:] + "."
}

func writeBinaryCalls(g *goFile, o asm.Op) {
	e := func(x, y string) string { return o.ExprOf(asm.Float64, x, y) }
	g.doc(fmt.Sprintf("%s sets dst[i] = %s.%s", o.Named, e("a[i]", "b[i]"), opDoc(o)))
	g.p("func %s[T %s](dst, a, b []T) {", o.Named, asm.Constraint(o.Types))
	g.p("if !fits(dst, a) || !fits(dst, b) { checkVV(%s, dst, a, b) } // panics, naming the misuse", o.Const())
	g.p("if n := len(dst); n > smallN {")
	g.p("kernel.%s(kernel.VV, 1, n, dst, 0, a, 0, b, 0, kernel.Streaming[T](kernel.VV, 1, n, 0, 0))", entryName(o))
	g.p("return")
	g.p("}")
	g.p("a, b = a[:len(dst)], b[:len(dst)]")
	g.p("for i := range dst { dst[i] = %s }", e("a[i]", "b[i]"))
	g.p("}")
	g.p("")

	g.doc(fmt.Sprintf("%sScalar sets dst[i] = %s.", o.Named, e("a[i]", "s")))
	g.p("func %sScalar[T %s](dst, a []T, s T) {", o.Named, asm.Constraint(o.Types))
	g.p("if !fits(dst, a) { checkV(%s, dst, a) }", o.Const())
	g.p("if n := len(dst); n > smallN {")
	g.p("kernel.%s(kernel.VS, 1, n, dst, 0, a, 0, []T{s}, 0, kernel.Streaming[T](kernel.VS, 1, n, 0, 0))", entryName(o))
	g.p("return")
	g.p("}")
	g.p("a = a[:len(dst)]")
	g.p("for i := range dst { dst[i] = %s }", e("a[i]", "s"))
	g.p("}")
	g.p("")
	if !o.ScalarFirst {
		return
	}
	g.doc(fmt.Sprintf("Scalar%s sets dst[i] = %s.", o.Named, e("s", "a[i]")))
	g.p("func Scalar%s[T %s](dst []T, s T, a []T) {", o.Named, asm.Constraint(o.Types))
	g.p("if !fits(dst, a) { checkV(%s, dst, a) }", o.Const())
	g.p("if n := len(dst); n > smallN {")
	g.p("kernel.%s(kernel.SV, 1, n, dst, 0, []T{s}, 0, a, 0, kernel.Streaming[T](kernel.SV, 1, n, 0, 0))", entryName(o))
	g.p("return")
	g.p("}")
	g.p("a = a[:len(dst)]")
	g.p("for i := range dst { dst[i] = %s }", e("s", "a[i]"))
	g.p("}")
	g.p("")
}
