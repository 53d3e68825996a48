package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// This file writes the Go side of internal/kernel: the op constants, the
// generic row loops (the reference every kernel must match), the per-op
// entries with their race annotations and preemption split, the op-valued
// entries, and, per architecture, the switches that pick an assembly kernel.

// allKinds lists every kind of every family once, in family order: each is
// a constant of internal/kernel's Kind.
func allKinds() []registry.Kind {
	var ks []registry.Kind
	seen := map[string]bool{}
	for _, f := range registry.Families {
		for _, k := range f.Kinds {
			if !seen[k.Name] {
				seen[k.Name] = true
				ks = append(ks, k)
			}
		}
	}
	return ks
}

// slot is one operand of a generated Go function: its parameter name, its
// leading stride's name, and its element type.
type slot struct {
	name, ld, typ string
}

// slots lists dst and the inputs of family f, with Go element types ("T",
// "bool").
func slots(f *registry.Family) []slot {
	s := []slot{{"dst", "ldd", f.Out}}
	for _, in := range f.Inputs {
		s = append(s, slot{in.Name, "ld" + in.Name, in.Type})
	}
	return s
}

// blockParams is the parameter list "m, n int, dst []T, ldd int, a []T, lda int".
func blockParams(f *registry.Family) string {
	ps := []string{"m, n int"}
	for _, s := range slots(f) {
		ps = append(ps, fmt.Sprintf("%s []%s, %s int", s.name, s.typ, s.ld))
	}
	return strings.Join(ps, ", ")
}

// blockArgs is the argument list matching blockParams.
func blockArgs(f *registry.Family) string {
	as := []string{"m, n"}
	for _, s := range slots(f) {
		as = append(as, s.name+", "+s.ld)
	}
	return strings.Join(as, ", ")
}

// rowParams is the parameter list of a row loop of kind k: the output row,
// then each input as a row (vector), a pointer (the first input, one
// value: a register-held first operand may be commuted with the second and
// then carry its NaN payload) or a value.
func rowParams(f *registry.Family, k registry.Kind) string {
	ps := []string{"d []" + f.Out}
	for i, in := range f.Inputs {
		switch {
		case k.Vector[i]:
			ps = append(ps, fmt.Sprintf("%s []%s", in.Name, in.Type))
		case i == 0:
			ps = append(ps, fmt.Sprintf("%s *%s", in.Name, in.Type))
		default:
			ps = append(ps, fmt.Sprintf("%s %s", in.Name, in.Type))
		}
	}
	return strings.Join(ps, ", ")
}

// rowElems are the operand expressions of element j of a row loop of kind k.
func rowElems(f *registry.Family, k registry.Kind) []string {
	var xs []string
	for i, in := range f.Inputs {
		switch {
		case k.Vector[i]:
			xs = append(xs, in.Name+"[j]")
		case i == 0:
			xs = append(xs, "*"+in.Name)
		default:
			xs = append(xs, in.Name)
		}
	}
	return xs
}

// rowArgs are the arguments of row r of a block of kind k for a row loop.
func rowArgs(f *registry.Family, k registry.Kind) string {
	as := []string{"dst[r*ldd:][:n]"}
	for i, in := range f.Inputs {
		switch {
		case k.Vector[i]:
			as = append(as, fmt.Sprintf("%s[r*ld%s:][:n]", in.Name, in.Name))
		case i == 0:
			as = append(as, fmt.Sprintf("&%s[r*ld%s]", in.Name, in.Name))
		default:
			as = append(as, fmt.Sprintf("%s[r*ld%s]", in.Name, in.Name))
		}
	}
	return strings.Join(as, ", ")
}

// rowBody writes the loop of op o on kind k, for T in the type set.
func rowBody(g *goFile, o registry.Op, k registry.Kind) {
	f := o.Family
	var reslice []string
	for i, in := range f.Inputs {
		if k.Vector[i] {
			reslice = append(reslice, in.Name)
		}
	}
	if len(reslice) > 0 { // one bounds check per row, none per element
		var rhs []string
		for _, n := range reslice {
			rhs = append(rhs, n+"[:len(d)]")
		}
		g.p("%s = %s", strings.Join(reslice, ", "), strings.Join(rhs, ", "))
	}
	writeTypedLoops(g, o, "j", "d", func(t registry.Type) string { return o.ExprOf(t, rowElems(f, k)...) })
}

// writeTypedLoops writes the loop dst[i] = op's expression over index i of
// slice dst, with the expression of each kind of T where they differ
// (float32, the integers, and float64's for the rest), each behind a test
// of T that the compiler folds.
func writeTypedLoops(g *goFile, o registry.Op, i, dst string, expr func(registry.Type) string) {
	e64 := expr(registry.Float64)
	loop := func(e string) { g.p("for %s := range %s { %s[%s] = %s }", i, dst, dst, i, e) }
	for _, c := range []struct {
		t    registry.Type
		test string
	}{{registry.Float32, "isFloat32[T]()"}, {registry.Int64, "!isFloat[T]()"}} {
		if e := expr(c.t); e != e64 && o.Supports(c.t) {
			g.p("if %s {", c.test)
			loop(e)
			g.p("return")
			g.p("}")
		}
	}
	loop(e64)
}

// entryName is the exported per-op entry of internal/kernel: "Add", "FMA".
func entryName(o registry.Op) string { return o.Named }

// writeKernelGo writes internal/kernel/ops_generated.go.
func writeKernelGo(dir string) error {
	imports := []string{"strconv"}
	for _, o := range registry.Ops {
		if strings.Contains(o.Expr+o.Expr32, "math.") {
			imports = append([]string{"math"}, imports...)
			break
		}
	}
	g := newGoFile(filepath.Join(dir, "ops_generated.go"), "", "kernel", imports...)
	writeKinds(g)
	for _, f := range registry.Families {
		writeFamilyOps(g, f)
		for _, o := range registry.OpsOf(f) {
			writeOpGo(g, o)
			writeChunk(g, o)
		}
		writeRace(g, f)
	}
	return g.write()
}

// writeKinds writes the Kind constants and names.
func writeKinds(g *goFile) {
	g.doc("The kinds: which inputs of a kernel supply a row of n values (v) and which\none value per row (s), one letter per input in order.")
	g.p("const (")
	for i, k := range allKinds() {
		if i == 0 {
			g.p("%s Kind = iota", k.Const())
		} else {
			g.p("%s", k.Const())
		}
	}
	g.p("numKinds")
	g.p(")")
	g.p("")
	var names []string
	for _, k := range allKinds() {
		names = append(names, fmt.Sprintf("%q", k.Name))
	}
	g.p("var kindNames = [numKinds]string{%s}", strings.Join(names, ", "))
	g.p("")
	g.doc("inputStep[k][i] is 1 when input i of kind k is a row of n values (it\nadvances along the row), and 0 when it is one value per row.")
	g.p("var inputStep = [numKinds][3]int{")
	for _, k := range allKinds() {
		var s []string
		for _, v := range k.Vector {
			s = append(s, map[bool]string{true: "1", false: "0"}[v])
		}
		g.p("%s: {%s},", k.Const(), strings.Join(s, ", "))
	}
	g.p("}")
	g.p("")
	g.doc("kindArrays[k] counts the arrays of n values a row of kind k reads or\nwrites: dst and each vector input, for the bytes that implFor weighs.")
	g.p("var kindArrays = [numKinds]int{")
	for _, k := range allKinds() {
		g.p("%s: %d,", k.Const(), kindArrays(k))
	}
	g.p("}")
	g.p("")
	g.doc("kindFor[arity-1][mask] is the kind of arity inputs with input i a row of n\nvalues when bit i of mask is set (see KindFor).")
	g.p("var kindFor = [3][8]Kind{")
	for arity := 1; arity <= 3; arity++ {
		var ks []string
		for mask := 0; mask < 8; mask++ {
			name := "numKinds"
			for _, k := range allKinds() {
				if len(k.Vector) == arity && k.Mask() == mask && mask < 1<<arity {
					name = k.Const()
				}
			}
			ks = append(ks, name)
		}
		g.p("{%s},", strings.Join(ks, ", "))
	}
	g.p("}")
	g.p("")
	g.doc("KindFor returns the kind of arity (1 to 3) inputs whose input i is a row of\nn values when bit i of mask is set, and one value per row otherwise; ok\nis false when no kernel has that kind (every input one value per row).")
	g.p("func KindFor(arity, mask int) (k Kind, ok bool) {")
	g.p("k = kindFor[arity-1][mask]")
	g.p("return k, k != numKinds")
	g.p("}")
	g.p("")
}

// writeFamilyOps writes a family's op constants, names and op-valued entries.
func writeFamilyOps(g *goFile, f *registry.Family) {
	ops := registry.OpsOf(f)
	typ := f.OpType
	g.p("// %s is a %s operation; its values are those of elem.%s.", typ, f.Name, typ)
	g.p("type %s uint8", typ)
	g.p("")
	g.p("// The %s operations, numbered as in package elem.", f.Name)
	g.p("const (")
	for i, o := range ops {
		g.p("%s %s = %d // %s", o.Const(), typ, i, o.FormulaOf(inputNames(f)...))
	}
	g.p("Num%ss %s = %d // the number of %s operations", typ, typ, len(ops), f.Name)
	g.p(")")
	g.p("")
	var names []string
	for _, o := range ops {
		names = append(names, fmt.Sprintf("%q", o.Name))
	}
	g.p("var %sNames = [Num%ss]string{%s}", lowerFirst(typ), typ, strings.Join(names, ", "))
	g.p("")
	g.p("// String returns the lower-case name of op (%q), or %s(N) for an invalid op.", ops[0].Name, typ)
	g.p("func (op %s) String() string {", typ)
	g.p("if op < Num%ss { return %sNames[op] }", typ, lowerFirst(typ))
	g.p("return %q + strconv.Itoa(int(op)) + \")\"", typ+"(")
	g.p("}")
	g.p("")

	// The op-valued entry.
	entry := opValuedEntry(f)
	g.doc(fmt.Sprintf("%s computes the m x n block of kind k of op with the implementation in use:\nthe trusted entry, which checks nothing. An invalid op panics.", entry))
	g.p("func %s[T %s](k Kind, op %s, %s, stream bool) {", entry, familyConstraint(f), typ, blockParams(f))
	g.p("switch op {")
	for _, o := range ops {
		g.p("case %s: %s(k, %s, stream)", o.Const(), entryName(o), blockArgs(f))
	}
	g.p("default: panic(\"kernel: invalid \" + op.String())")
	g.p("}")
	g.p("}")
	g.p("")

	g.doc(fmt.Sprintf("%sEntry returns op's entry, for callers that resolve an op once and call it\nmany times (an expression's steps) without the switch of %s. An invalid op\npanics.", entry, entry))
	g.p("func %sEntry[T %s](op %s) func(k Kind, %s, stream bool) {", entry, familyConstraint(f), typ, blockParams(f))
	g.p("switch op {")
	for _, o := range ops {
		g.p("case %s: return %s[T]", o.Const(), entryName(o))
	}
	g.p("}")
	g.p("panic(\"kernel: invalid \" + op.String())")
	g.p("}")
	g.p("")

	g.doc(fmt.Sprintf("%sKernel returns op's kernel for a call of kind k and m x n elements\n(see the ops' own resolvers), or nil. An invalid op panics.", entry))
	g.p("func %sKernel[T %s](op %s, k Kind, m, n int, stream bool) %s {", entry, familyConstraint(f), typ, kernelType(f))
	g.p("switch op {")
	for _, o := range ops {
		g.p("case %s: return %sKernel[T](k, m, n, stream)", o.Const(), o.Name)
	}
	g.p("}")
	g.p("panic(\"kernel: invalid \" + op.String())")
	g.p("}")
	g.p("")

	g.doc(fmt.Sprintf("Reference%s computes the m x n block of kind k of op with the generic row\nloops, the reference every implementation must equal bit for bit.", familyPrefix(f)))
	g.p("func Reference%s[T %s](k Kind, op %s, %s) {", familyPrefix(f), familyConstraint(f), typ, blockParams(f))
	g.p("switch op {")
	for _, o := range ops {
		g.p("case %s: %sGeneric(k, %s)", o.Const(), o.Name, blockArgs(f))
	}
	g.p("default: panic(\"kernel: invalid \" + op.String())")
	g.p("}")
	g.p("}")
	g.p("")

	// Op-valued row loops, for the inline paths of short calls.
	for _, k := range f.Kinds {
		g.doc(fmt.Sprintf("%sRow%s computes one row of kind %s of op with the generic loop.", familyPrefix(f), k.Const(), k.Name))
		g.p("func %sRow%s[T %s](op %s, %s) {", familyPrefix(f), k.Const(), familyConstraint(f), typ, rowParams(f, k))
		g.p("switch op {")
		for _, o := range ops {
			g.p("case %s: %s%s(%s)", o.Const(), o.Name, k.Const(), rowCallArgs(f, k))
		}
		g.p("default: panic(\"kernel: invalid \" + op.String())")
		g.p("}")
		g.p("}")
		g.p("")
	}
}

// opValuedEntry is the name of a family's op-valued entry: "Binary".
func opValuedEntry(f *registry.Family) string { return strings.ToUpper(f.Name[:1]) + f.Name[1:] }

// familyPrefix distinguishes the families' op-valued row loops and
// reference functions; the binary family's are plain RowVV and Reference.
func familyPrefix(f *registry.Family) string {
	if f == registry.Binary {
		return ""
	}
	return opValuedEntry(f)
}

func rowCallArgs(f *registry.Family, k registry.Kind) string {
	as := []string{"d"}
	for _, in := range f.Inputs {
		as = append(as, in.Name)
	}
	return strings.Join(as, ", ")
}

func inputNames(f *registry.Family) []string {
	var ns []string
	for _, in := range f.Inputs {
		ns = append(ns, in.Name)
	}
	return ns
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// writeOpGo writes one op's row loops, generic block, and entries.
func writeOpGo(g *goFile, o registry.Op) {
	f := o.Family
	for _, k := range f.Kinds {
		// Every caller shares one compiled row loop: inlined, a + b would be
		// compiled per call site, and some compilers (ppc64le, s390x; and on
		// amd64, a first operand loaded in a loop over rows) then swap the
		// operands of a commutative op in one place and not in another, so
		// that two NaNs give different payloads in the block and in the
		// one-element forms.
		g.p("//go:noinline")
		g.p("func %s%s[T %s](%s) {", o.Name, k.Const(), familyConstraint(f), rowParams(f, k))
		rowBody(g, o, k)
		g.p("}")
		g.p("")
	}
	g.p("func %sGeneric[T %s](k Kind, %s) {", o.Name, familyConstraint(f), blockParams(f))
	g.p("for r := range m {")
	g.p("switch k {")
	for _, k := range f.Kinds {
		g.p("case %s: %s%s(%s)", k.Const(), o.Name, k.Const(), rowArgs(f, k))
	}
	g.p("}")
	g.p("}")
	g.p("}")
	g.p("")

}

// writeChunk writes op o's preemption split: a block too big to run in one
// assembly call runs as bands of rows, or pieces of one row, each through
// the op's entry again (as a piece, it runs in one call). It calls the entry
// directly: through a function value, the compiler would let every operand
// escape.
func writeChunk(g *goFile, o registry.Op) {
	f := o.Family
	g.p("func %sChunked[T %s](k Kind, %s, stream bool) {", o.Name, familyConstraint(f), blockParams(f))
	g.p("limit := chunkElems[T]()")
	g.p("rows := max(1, limit/n)")
	g.p("for r := 0; r < m; r += rows {")
	g.p("rr := min(rows, m-r)")
	g.p("if n <= limit {")
	g.p("%s(k, %s, stream)", entryName(o), pieceArgs(f, "rr", "n", "0", false))
	g.p("continue")
	g.p("}")
	g.p("for col := 0; col < n; col += limit {")
	g.p("%s(k, %s, stream)", entryName(o), pieceArgs(f, "1", "min(limit, n-col)", "col", true))
	g.p("}")
	g.p("}")
	g.p("}")
	g.p("")
}

// pieceArgs are the arguments of a piece of rows rows and cols columns at
// row r and column col.
func pieceArgs(f *registry.Family, rows, cols, col string, columns bool) string {
	as := []string{rows, cols}
	for i, s := range slots(f) {
		off := "r*" + s.ld
		if columns {
			if i == 0 {
				off += "+" + col
			} else {
				off += fmt.Sprintf("+%s*inputStep[k][%d]", col, i-1)
			}
		}
		as = append(as, fmt.Sprintf("%s[%s:], %s", s.name, off, s.ld))
	}
	return strings.Join(as, ", ")
}

// writeRace writes the family's race annotations: each row of the output
// written, each input row (or per-row value) read.
func writeRace(g *goFile, f *registry.Family) {
	g.p("func race%s[T %s](k Kind, %s) {", opValuedEntry(f), familyConstraint(f), blockParams(f))
	g.p("for r := range m {")
	g.p("raceWrite(dst[r*ldd:][:n])")
	for i, in := range f.Inputs {
		g.p("raceRead(%s[r*ld%s:][:1+(n-1)*inputStep[k][%d]])", in.Name, in.Name, i)
	}
	g.p("}")
	g.p("}")
	g.p("")
}

// familyConstraint is the constraint of family f's element types in the
// generated code: every per-op function of the family takes it, so that
// the family's op-valued entry can call any of them; the switches to the
// kernels pick only the types each op is defined on.
func familyConstraint(f *registry.Family) string { return registry.Constraint(f.Types()) }
