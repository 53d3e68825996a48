package main

import (
	"fmt"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// This file writes package elem's ops_generated.go: each family's op type,
// constants, names and list, and the named calls (Add, AddScalar,
// ScalarSub, ...), each with an inline Go path for short slices so that a
// call on a few elements costs no more than the loop it replaces.

// familyDocs documents each family's op type in package elem.
var familyDocs = map[*registry.Family]string{
	registry.Binary:  "Op is an elementwise binary operation, for code that picks the operation at\nrun time (Apply, ApplyScalar, ScalarApply, Apply2D, the broadcast package).",
	registry.Unary:   "UnaryOp is an elementwise operation on one operand, for code that picks the\noperation at run time (ApplyUnary).",
	registry.Compare: "CompareOp is an elementwise comparison, for code that picks it at run time\n(Compare, CompareScalar). Comparisons follow Go: every comparison with a NaN\nis false except !=, which is true.",
	registry.Ternary: "TernaryOp is an elementwise operation on three operands, for code that picks\nthe operation at run time (ApplyTernary).",
	registry.Bitwise: "BitOp is a bitwise operation of the integer types, for code that picks the\noperation at run time (ApplyBitwise).",
	registry.Shift:   "ShiftOp is a shift of the integer types, for code that picks it at run time\n(ApplyShift).",
}

// listFuncs names the function listing a family's ops.
var listFuncs = map[*registry.Family]string{registry.Binary: "Ops", registry.Unary: "UnaryOps", registry.Compare: "CompareOps",
	registry.Ternary: "TernaryOps", registry.Bitwise: "BitOps", registry.Shift: "ShiftOps"}

func writeElemGo(path string) error {
	g := newGoFile(path, "", "elem", "github.com/simdkit/elem/internal/elemtype", "github.com/simdkit/elem/internal/kernel")
	for _, f := range registry.Families {
		if _, ok := familyDocs[f]; ok {
			writeElemFamily(g, f)
		}
		for _, o := range registry.OpsOf(f) {
			writeNamedCalls(g, o)
		}
		if f == registry.Binary {
			writeOpValuedCalls(g)
		} else if f != registry.Selection { // Select has no op-valued call
			writeShortRun(g, f)
		}
	}
	return g.write()
}

// writeElemFamily writes a family's op type, constants and list.
func writeElemFamily(g *goFile, f *registry.Family) {
	ops := registry.OpsOf(f)
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
	if c := registry.Constraint(f.Types()); c == "Number" {
		var fl, in uint64
		for i, o := range ops {
			if hasTypes(o, true) {
				fl |= 1 << i
			}
			if hasTypes(o, false) {
				in |= 1 << i
			}
		}
		g.p("// %sOnFloats and %sOnIntegers say which ops are defined on the float and on\n// the integer types: bit op is set for each.", lowerFirst(typ), lowerFirst(typ))
		g.p("const (")
		g.p("%sOnFloats = %#b", lowerFirst(typ), fl)
		g.p("%sOnIntegers = %#b", lowerFirst(typ), in)
		g.p(")")
		g.p("")
		g.p("// %sOn returns the bits of the ops defined on T.", lowerFirst(typ))
		g.p("func %sOn[T Number]() uint64 {", lowerFirst(typ))
		g.p("if isFloat[T]() { return %sOnFloats }", lowerFirst(typ))
		g.p("return %sOnIntegers", lowerFirst(typ))
		g.p("}")
		g.p("")
		name := strings.TrimSuffix(typ, "Op") + "DefinedOn" // DefinedOn for Op, UnaryDefinedOn, ...
		g.p("// %s reports whether op is a valid %s defined on the element type T\n// (the calls panic on the others).", name, typ)
		g.p("func %s[T Number](op %s) bool { return %sOn[T]()>>op&1 != 0 }", name, typ, lowerFirst(typ))
		g.p("")
	}
	g.p("// %s returns every %s operation in order.", listFuncs[f], f.Name)
	g.p("func %s() []%s { return []%s{%s} }", listFuncs[f], typ, typ, strings.Join(consts, ", "))
	g.p("")
}

// writeNamedCalls writes an op's named calls.
func writeNamedCalls(g *goFile, o registry.Op) {
	if o.Family == registry.Binary {
		writeBinaryCalls(g, o)
		return
	}
	for _, form := range o.NamedForms() {
		if complexOps[form.Name] {
			writeComplexUnaryCall(g, o, form)
			continue
		}
		writeFormCall(g, o, form)
	}
}

// writeComplexUnaryCall writes a unary math call that takes complex values
// too (Exp): complex values go to its complex function (complexExp in
// elem's complex.go), float ones to the float call's body in a function of
// its own, by a switch on the type as in writeComplexCall.
func writeComplexUnaryCall(g *goFile, o registry.Op, form registry.Form) {
	g.doc(fmt.Sprintf("%s sets dst[i] = %s.%s", form.Name, o.FormulaOf("a[i]"), opDoc(o)))
	g.p("// On complex values: e^(x+iy) = (e^x·cos y, e^x·sin y) by elem's Exp, Cos and Sin, the products rounded, math/cmplx's special cases (see Complex).")
	g.p("func %s[T Float | Complex](dst, a []T) {", form.Name)
	g.p("if !fits(dst, a) { mustFit(%q, in(\"dst\", dst), in(\"a\", a)) }", form.Name)
	g.p("switch elemtype.KindOf[T]() {")
	for _, t := range []string{"Float32", "Float64"} {
		g.p("case elemtype.%s:", t)
		g.p("%sKernel(elemtype.Recast[%s](dst), elemtype.Recast[%s](a))", lowerFirst(form.Name), strings.ToLower(t), strings.ToLower(t))
	}
	g.p("default:")
	g.p("complex%s(dst, a)", form.Name)
	g.p("}")
	g.p("}")
	g.p("")
	g.doc(fmt.Sprintf("%sKernel runs %s's kernel on float slices.", lowerFirst(form.Name), form.Name))
	g.p("func %sKernel[T Float](dst, a []T) {", lowerFirst(form.Name))
	g.p("stream := kernel.StreamFlat[T](len(dst), 2)")
	g.p("kernel.%s(kernel.V, 1, len(dst), dst, 0, a, 0, stream)", entryName(o))
	g.p("kernel.FenceAfter(stream)")
	g.p("}")
	g.p("")
}

// formParam is one input of a named call: its parameter name, and whether
// it is a slice (a vector input) or a scalar.
type formParam struct {
	name, typ string
	vector    bool
}

// formParams names the inputs of a named call: a, b, c for slices and s
// for a scalar, unless the form names them.
func formParams(o registry.Op, form registry.Form) []formParam {
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
func writeFormCall(g *goFile, o registry.Op, form registry.Form) {
	f := o.Family
	k := f.FindKind(form.Kind)
	ps := formParams(o, form)
	var sig, elems, checks, ins, args []string
	vectors := 1 // dst
	for _, p := range ps {
		if p.vector {
			sig = append(sig, fmt.Sprintf("%s []%s", p.name, p.typ))
			elems = append(elems, p.name+"[i]")
			check := "fitsAny" // dst and x of different element types
			if p.typ == f.Out {
				check = "fits" // one subtraction and two compares
			}
			checks = append(checks, fmt.Sprintf("!%s(dst, %s)", check, p.name))
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
	g.p("func %s[T %s](dst []%s, %s) {", form.Name, registry.Constraint(o.Types), f.Out, strings.Join(sig, ", "))
	g.p("if %s { mustFit(%q, in(\"dst\", dst), %s) }", strings.Join(checks, " || "), form.Name, strings.Join(ins, ", "))
	writeSmallLoop(g, o, ps, elems)
	if f.Stream {
		g.p("stream := kernel.StreamFlat[T](len(dst), %d)", vectors)
		g.p("kernel.%s(kernel.%s, 1, len(dst), dst, 0, %s, stream)", entryName(o), k.Const(), strings.Join(args, ", "))
		g.p("kernel.FenceAfter(stream)")
	} else {
		g.p("kernel.%s(kernel.%s, 1, len(dst), dst, 0, %s, false)", entryName(o), k.Const(), strings.Join(args, ", "))
	}
	g.p("}")
	g.p("")
}

// smallLimit is the condition under which a call of op o on n elements
// (a Go expression) runs its loop over short slices (see elem.go): up to
// smallN elements, up to smallComputeBytes for the ops whose scalar form
// costs its arithmetic unit (a divider, a square root), and smallNFMA32
// for the float32 FMA, whose exact rounding is a software routine.
func smallLimit(o registry.Op, n string) string {
	switch {
	case o.Math: // a routine per element: a kernel is faster from one vector on
		return "false"
	case o.Compute:
		return n + " <= smallOf[T](smallComputeBytes)"
	case strings.Contains(o.Expr32, "fma32"):
		return fmt.Sprintf("%s <= smallN && (%s <= smallNFMA32 || !isFloat32[T]())", n, n)
	}
	return n + " <= smallN"
}

// writeShortRun writes shortX (X a family's op type), which tells the
// family's op-valued calls (ApplyUnary, Compare, ...) whether a call of op
// on n elements runs the op's row loop: the named calls' smallLimit.
func writeShortRun(g *goFile, f *registry.Family) {
	name := "short" + f.OpType
	g.doc(fmt.Sprintf("%s reports whether an op-valued call of op on n elements of T runs the\nop's row loop rather than a kernel, as the named calls do.", name))
	g.p("func %s[T Number](op %s, n int) bool {", name, f.OpType)
	var cases []string
	for _, o := range registry.OpsOf(f) {
		if limit := smallLimit(o, "n"); limit != "n <= smallN" {
			cases = append(cases, fmt.Sprintf("case %s:\nreturn %s", o.Const(), limit))
		}
	}
	if len(cases) > 0 {
		g.p("switch op {\n%s\n}", strings.Join(cases, "\n"))
	}
	g.p("return n <= smallN")
	g.p("}")
	g.p("")
}

// writeSmallLoop writes a named call's path for short slices: the op's
// scalar expression (the generic kernels' own) in a loop inline, which
// costs less than deciding on and calling a kernel.
func writeSmallLoop(g *goFile, o registry.Op, ps []formParam, elems []string) {
	if o.Math {
		return
	}
	g.p("if %s {", smallLimit(o, "len(dst)"))
	var vs, cut []string
	for _, p := range ps {
		if p.vector { // one bounds check per call, none per element
			vs, cut = append(vs, p.name), append(cut, p.name+"[:len(dst)]")
		}
	}
	g.p("%s = %s", strings.Join(vs, ", "), strings.Join(cut, ", "))
	// math.X becomes elem's wrapper mathX (see elem's scalarmath.go), and
	// the kernels' Pick is package kernel's.
	local := strings.NewReplacer("math.", "math", "Pick(", "kernel.Pick(")
	writeTypedLoops(g, o, "i", "dst", func(t registry.Type) string { return local.Replace(o.ExprOf(t, elems...)) })
	g.p("return")
	g.p("}")
}

// opDoc is the sentence after the formula in a named call's doc comment.
func opDoc(o registry.Op) string {
	if o.Doc == "" {
		return ""
	}
	return "\n" + strings.ToUpper(o.Doc[:1]) + o.Doc[1:] + "."
}

// binaryForms are the three forms of a binary call: the kernel kind, the
// call's parameters after dst, its contract check, the kernel's two input
// arguments, the slices the inline loop reslices and the loop's operands.
var binaryForms = []struct {
	kind, params, check, args, reslice, x, y string
}{
	{"VV", "a, b []T", "if !fits(dst, a) || !fits(dst, b) { panic(misuseVV(%s, dst, a, b)) }",
		"a, 0, b, 0", "a, b = a[:len(dst)], b[:len(dst)]", "a[i]", "b[i]"},
	{"VS", "a []T, s T", "if !fits(dst, a) { panic(misuseV(%s, dst, a)) }",
		"a, 0, []T{s}, 0", "a = a[:len(dst)]", "a[i]", "s"},
	{"SV", "s T, a []T", "if !fits(dst, a) { panic(misuseV(%s, dst, a)) }",
		"[]T{s}, 0, a, 0", "a = a[:len(dst)]", "s", "a[i]"},
}

// writeBinaryBody writes what a binary call of form f runs once its
// arguments are checked: the plain loop inline for short slices (see
// smallLimit), which costs less than any call, else the kernel. The named
// calls and the op-valued ones (Apply, ...) share it.
func writeBinaryBody(g *goFile, o registry.Op, f int) {
	form := binaryForms[f]
	if !o.Math {
		g.p("if %s {", smallLimit(o, "len(dst)"))
		g.p("%s", form.reslice)
		g.p("for i := range dst { dst[i] = %s }", o.ExprOf(registry.Float64, form.x, form.y))
		g.p("return")
		g.p("}")
	}
	g.p("stream := kernel.StreamFlat[T](len(dst), %d)", len(form.kind)+1-strings.Count(form.kind, "S"))
	g.p("kernel.%s(kernel.%s, 1, len(dst), dst, 0, %s, stream)", entryName(o), form.kind, form.args)
	g.p("kernel.FenceAfter(stream)")
}

func writeBinaryCalls(g *goFile, o registry.Op) {
	names := []string{o.Named, o.Named + "Scalar", "Scalar" + o.Named}
	for f, form := range binaryForms {
		if form.kind == "SV" && !o.ScalarFirst {
			continue
		}
		g.doc(fmt.Sprintf("%s sets dst[i] = %s.%s", names[f], o.ExprOf(registry.Float64, form.x, form.y), opDoc(o)))
		if form.kind == "VV" && complexOps[o.Named] {
			writeComplexCall(g, o, form.check)
			continue
		}
		g.p("func %s[T %s](dst []T, %s) {", names[f], registry.Constraint(o.Types), form.params)
		g.p(form.check, o.Const())
		writeBinaryBody(g, o, f)
		g.p("}")
		g.p("")
	}
}

// complexOps are the ops whose vv call (or unary call) takes complex
// values too.
var complexOps = map[string]bool{"Add": true, "Sub": true, "Mul": true, "Div": true, "Exp": true}

// writeComplexCall writes the vv call of an op of complexOps: complex
// values go to the op's complex function (complexAdd, ... in elem's
// complex.go), the others to the real call's body in a function of their
// own, by a switch on the type (folded to one case in every instantiation)
// that hands it the slices as the Number type T is defined on: T's
// constraint takes the complex types too, which the kernels do not.
func writeComplexCall(g *goFile, o registry.Op, check string) {
	g.p("// On complex values (see Complex): %s.", map[string]string{
		"Add": "the parts' sums", "Sub": "the parts' differences",
		"Mul": "(ar·br − ai·bi, ar·bi + ai·br), every product rounded", "Div": "Go's runtime algorithm, every operation rounded"}[o.Named])
	g.p("func %s[T %s | Complex](dst []T, a, b []T) {", o.Named, registry.Constraint(o.Types))
	g.p(check, o.Const())
	g.p("if elemtype.IsComplex[T]() {")
	g.p("complex%s(dst, a, b)", o.Named)
	g.p("return")
	g.p("}")
	if !o.Math {
		g.p("if %s {", smallLimit(o, "len(dst)"))
		g.p("a, b = a[:len(dst)], b[:len(dst)]")
		g.p("for i := range dst { dst[i] = %s }", o.ExprOf(registry.Float64, "a[i]", "b[i]"))
		g.p("return")
		g.p("}")
	}
	kern := lowerFirst(o.Named) + "Kernel"
	g.p("switch elemtype.KindOf[T]() {")
	for _, t := range o.Types {
		if !t.Float && !t.Signed {
			continue // the signed kernels' bits: see elemtype.Kind
		}
		g.p("case elemtype.%s:", strings.ToUpper(t.GoName[:1])+t.GoName[1:])
		g.p("%s(elemtype.Recast[%s](dst), elemtype.Recast[%s](a), elemtype.Recast[%s](b))", kern, t.GoName, t.GoName, t.GoName)
	}
	g.p("}")
	g.p("}")
	g.p("")
	g.doc(fmt.Sprintf("%s runs %s's kernel on slices of a real type.", kern, o.Named))
	g.p("func %s[T %s](dst, a, b []T) {", kern, registry.Constraint(o.Types))
	g.p("stream := kernel.StreamFlat[T](len(dst), 3)")
	g.p("kernel.%s(kernel.VV, 1, len(dst), dst, 0, a, 0, b, 0, stream)", entryName(o))
	g.p("kernel.FenceAfter(stream)")
	g.p("}")
	g.p("")
}

// opValuedDocs document the op-valued binary calls, one per form.
var opValuedDocs = []struct{ name, doc string }{
	{"Apply", "Apply sets dst[i] = a[i] op b[i]."},
	{"ApplyScalar", "ApplyScalar sets dst[i] = a[i] op s."},
}

// writeOpValuedCalls writes Apply and ApplyScalar: a switch on the op whose
// every case is that op's named call inline, so that choosing the op at run
// time costs a jump, not a call. ScalarApply (in elem.go) keeps the generic
// kernel for short slices: inline, s op a[i] may be compiled with the
// operands swapped, and for add, mul, min and max no named call pins them.
func writeOpValuedCalls(g *goFile) {
	for f, form := range binaryForms[:len(opValuedDocs)] {
		g.doc(opValuedDocs[f].doc)
		g.p("func %s[T Number](op Op, dst []T, %s) {", opValuedDocs[f].name, form.params)
		g.p("if !DefinedOn[T](op) { panic(notDefined(op, isFloat[T]())) }")
		g.p(form.check, "op")
		g.p("switch op {")
		for _, o := range registry.OpsOf(registry.Binary) {
			g.p("case %s:", o.Const())
			writeBinaryBody(g, o, f)
		}
		g.p("}")
		g.p("}")
		g.p("")
	}
}
