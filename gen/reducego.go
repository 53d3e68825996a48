package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// This file writes the Go side of the reductions in internal/kernel: the
// generic kernels (the reference every other kernel equals bit for bit),
// the trusted entries with their race annotations and preemption split,
// per architecture the switch from a piece to its assembly kernel, and the
// test table.

// reduceEmitted tells, per GOARCH, whether a reduction has a kernel for an
// element type there.
var reduceEmitted = map[string]func(r registry.Reduction, t registry.Type) bool{
	"amd64": x86ReduceEmitted,
	"arm64": neonReduceEmitted,
}

// reduceWholeRounds tells, per GOARCH, whether a fold's kernel on a type
// for a level takes whole rounds of the accumulators only: its piece folds
// the last partial round with the generic kernel.
var reduceWholeRounds = map[string]func(t registry.Type, isa *registry.ISA) bool{
	"amd64": x86WholeRounds,
	"arm64": neonWholeRounds,
}

// reduceExtremeVectors tells, per GOARCH, how many elements an extreme's
// kernel on a type takes a multiple of (0: any number): its piece folds
// the rest with the generic loop (extremeRest).
var reduceExtremeVectors = map[string]func(t registry.Type) int{
	"amd64": func(registry.Type) int { return 0 },
	"arm64": neonExtremeVectors,
}

// reduceOperands is the parameter list of a reduction's Go functions:
// "acc, a, b []T" for a fold, "a []T, v T" for FindBits, "acc, a []T, v T"
// for a shifted fold.
func reduceOperands(r registry.Reduction) string {
	var names []string
	if !r.Fold.Finds() {
		names = append(names, "acc")
	}
	names = append(names, r.Inputs...)
	ps := strings.Join(names, ", ") + " []T"
	if r.HasValue() {
		ps += ", v T"
	}
	return ps
}

// reduceArgs is the argument list matching reduceOperands.
func reduceArgs(r registry.Reduction) string {
	var names []string
	if !r.Fold.Finds() {
		names = append(names, "acc")
	}
	names = append(names, r.Inputs...)
	if r.HasValue() {
		names = append(names, "v")
	}
	return strings.Join(names, ", ")
}

// reduceResult is " int" for a find, "" for a fold.
func reduceResult(r registry.Reduction) string {
	if r.Fold.Finds() {
		return " int"
	}
	return ""
}

// combine is how fold f adds a term into an accumulator, in Go. Which
// operand's payload a NaN accumulator carries is not part of the
// definition: the Go compiler commutes additions freely, and the callers
// replace a NaN result by a canonical one (see package elem).
func combine(f registry.Fold, acc, term string) string {
	switch f {
	case registry.FoldMin:
		return fmt.Sprintf("min(%s, %s)", acc, term)
	case registry.FoldMax:
		return fmt.Sprintf("max(%s, %s)", acc, term)
	}
	return acc + " + " + term
}

// writeReduceGo writes internal/kernel/reduce_generated.go, the per-arch
// switches and the test table.
func writeReduceGo(dir string) error {
	g := newGoFile(filepath.Join(dir, "reduce_generated.go"), "", "kernel", "math")
	g.doc("Lanes is the number of accumulators of a fold, for every element type:\nthey fill whole registers on every instruction set.")
	g.p("const Lanes = %d", registry.ReduceLanes)
	g.p("")
	writeSumTrees(g)
	for _, r := range registry.Reductions {
		writeReduceGeneric(g, r)
		writeReduceEntry(g, r)
	}
	if err := g.write(); err != nil {
		return err
	}
	for _, arch := range registry.Archs() {
		if err := writeReduceSwitch(dir, arch); err != nil {
			return err
		}
	}
	if err := writeReduceSwitch(dir, ""); err != nil {
		return err
	}
	return writeReduceTests(dir)
}

// writeSumTrees writes the canonical tree as one expression: the halving tree (j with j + h, h = lanes/2, ..., 1)
// evaluated depth first, so that its values live in registers rather than
// in memory, the parentheses fixing every addition.
func writeSumTrees(g *goFile) {
	var node func(h, j int) string
	node = func(h, j int) string {
		if h == registry.ReduceLanes {
			return fmt.Sprintf("acc[%d]", j)
		}
		return fmt.Sprintf("(%s + %s)", node(2*h, j), node(2*h, j+h))
	}
	g.doc("sumTree combines the accumulators by the canonical tree.")
	g.p("func sumTree[T Number](acc *[Lanes]T) T {")
	g.p("return %s", node(1, 0))
	g.p("}")
	g.p("")
}

// writeReduceGeneric writes the generic kernel of r: a float fold walks a
// in rounds of len(acc) elements, element j of a round into accumulator j;
// an integer fold and a find are plain loops.
func writeReduceGeneric(g *goFile, r registry.Reduction) {
	name := r.Entry + "Generic"
	g.doc(fmt.Sprintf("%s %s with the generic Go loop: the reference.", name, r.Doc))
	g.p("func %s[T Number](%s)%s {", name, reduceOperands(r), reduceResult(r))
	switch r.Fold {
	case registry.FindBits:
		// Floats compare bits (-0 is not +0, a NaN is found); integers'
		// == is a comparison of bits already.
		g.p("switch typeOf[T]() {")
		g.p("case tFloat32:")
		g.p("vb := math.Float32bits(float32(v))")
		g.p("for i, x := range a { if math.Float32bits(float32(x)) == vb { return i } }")
		g.p("return len(a)")
		g.p("case tFloat64:")
		g.p("vb := math.Float64bits(float64(v))")
		g.p("for i, x := range a { if math.Float64bits(float64(x)) == vb { return i } }")
		g.p("return len(a)")
		g.p("}")
		g.p("for i, x := range a { if x == v { return i } }")
		g.p("return len(a)")
	case registry.FindNaN:
		g.p("for i, x := range a { if x != x { return i } }")
		g.p("return len(a)")
	case registry.FindMax, registry.FindMin:
		g.p("at := 0")
		g.p("for i, x := range a {")
		g.p("if x != x { return -1 }")
		g.p("if x %s a[at] { at = i }", r.Fold.Beats())
		g.p("}")
		g.p("return at")
	case registry.FindGreatest, registry.FindLeast:
		sign := -1 // the start beats nothing: -Inf for the greatest, +Inf for the least
		if r.Fold.Least() {
			sign = 1
		}
		g.p("if !isFloat[T]() {")
		g.p("// No kernel: the plain loop, whose value is the result.")
		g.p("if len(a) == 0 { return 0 }")
		g.p("m := a[0]")
		g.p("for _, x := range a { if x %s m { m = x } }", r.Fold.Beats())
		g.p("return int(m)")
		g.p("}")
		g.p("m := inf[T](%d)", sign)
		g.p("for _, x := range a {")
		g.p("if x != x { return -1 }")
		g.p("if x %s m { m = x }", r.Fold.Beats())
		g.p("}")
		g.p("return extremeBits(m)")
	default:
		var round, tail, cut, advance []string
		for _, in := range r.Inputs {
			round = append(round, "r"+in)
			cut = append(cut, in+"[:len(acc)]")
			advance = append(advance, in+"[len(acc):]")
			tail = append(tail, in+"[j]")
		}
		for _, in := range r.Inputs[1:] {
			g.p("%s = %s[:len(a)]", in, in)
		}
		var elems []string
		for _, in := range r.Inputs {
			elems = append(elems, in+"[i]")
		}
		g.p("if !isFloat[T]() {")
		g.p("// The order does not matter: one accumulator, the plain loop.")
		g.p("s := acc[0]")
		g.p("for i := range a { s = %s }", combine(r.Fold, "s", r.TermOf("T", elems...)))
		g.p("acc[0] = s")
		g.p("return")
		g.p("}")
		var roundElems []string
		for _, x := range round {
			roundElems = append(roundElems, x+"[j]")
		}
		g.p("for len(a) >= len(acc) {")
		g.p("%s := %s", strings.Join(round, ", "), strings.Join(cut, ", "))
		g.p("for j := range acc { acc[j] = %s }", combine(r.Fold, "acc[j]", r.TermOf("T", roundElems...)))
		g.p("%s = %s", strings.Join(r.Inputs, ", "), strings.Join(advance, ", "))
		g.p("}")
		g.p("for j := range a { acc[j] = %s }", combine(r.Fold, "acc[j]", r.TermOf("T", tail...)))
	}
	g.p("}")
	g.p("")
}

// writeReduceEntry writes r's trusted entry: race annotations, then the
// input in pieces of at most chunkElems (a whole number of rounds of the
// accumulators), so that the goroutine can be preempted between pieces.
func writeReduceEntry(g *goFile, r registry.Reduction) {
	var doc string
	if r.Fold.Finds() {
		doc = fmt.Sprintf("%s %s with the implementation in use: the trusted entry, which\nchecks nothing. It searches pieces of chunkBytes, so that the goroutine can be\npreempted between them.", r.Entry, r.Doc)
	} else {
		doc = fmt.Sprintf("%s %s with the implementation in use: the trusted entry,\nwhich checks nothing (acc has Lanes elements%s). It folds pieces of\nchunkBytes, a whole number of rounds of the accumulators each, so that the\ngoroutine can be preempted between them.", r.Entry, r.Doc, otherInputs(r))
	}
	g.doc(doc)
	g.p("func %s[T Number](%s)%s {", r.Entry, reduceOperands(r), reduceResult(r))
	g.p("if raceEnabled {")
	g.p("raceRead(a)")
	for _, in := range r.Inputs[1:] {
		g.p("raceRead(%s[:len(a)])", in)
	}
	if !r.Fold.Finds() {
		g.p("raceWrite(acc)")
	}
	g.p("}")
	piece := r.Name + "Piece"
	var pieceArgs []string
	if !r.Fold.Finds() {
		pieceArgs = append(pieceArgs, "acc")
	}
	for _, in := range r.Inputs {
		pieceArgs = append(pieceArgs, in+"[off:end]")
	}
	if r.HasValue() {
		pieceArgs = append(pieceArgs, "v")
	}
	g.p("c := chunkElems[T]()")
	if r.Fold.Valued() {
		// Each piece's extreme against the earlier pieces': the values
		// decide, and a NaN anywhere makes the result (-1 is a NaN's bits
		// for float64, and no float32's: never an extreme's).
		g.p("b := %s(a[:min(c, len(a))])", piece)
		g.p("for off := c; off < len(a) && !(b == -1 && isFloat[T]()); off += c {")
		g.p("b = joinExtremeBits[T](b, %s(a[off:min(off+c, len(a))]), %v)", piece, !r.Fold.Least())
		g.p("}")
		g.p("return b")
		g.p("}")
		g.p("")
		return
	}
	if r.Fold.Extreme() {
		// Each piece's extreme against the earlier pieces': a tie keeps
		// the earlier one, so the first index stays.
		g.p("at := 0")
		g.p("for off := 0; off < len(a); off += c {")
		g.p("i := %s(a[off:min(off+c, len(a))])", piece)
		g.p("if i < 0 { return -1 }")
		g.p("if off == 0 || a[off+i] %s a[at] { at = off + i }", r.Fold.Beats())
		g.p("}")
		g.p("return at")
		g.p("}")
		g.p("")
		return
	}
	g.p("for off := 0; off < len(a); off += c {")
	g.p("end := min(off+c, len(a))")
	if r.Fold.Finds() {
		g.p("if i := %s(%s); i < end-off { return off + i }", piece, strings.Join(pieceArgs, ", "))
	} else {
		g.p("%s(%s)", piece, strings.Join(pieceArgs, ", "))
	}
	g.p("}")
	if r.Fold.Finds() {
		g.p("return len(a)")
	}
	g.p("}")
	g.p("")
}

// otherInputs says how long the inputs after a are.
func otherInputs(r registry.Reduction) string {
	if len(r.Inputs) < 2 {
		return ""
	}
	return fmt.Sprintf(", %s at least len(a)", strings.Join(r.Inputs[1:], ", "))
}

// writeReduceSwitch writes reduce_<arch>_dispatch.go (reduce_noasm.go for
// arch ""): each reduction's piece, which runs its kernel for the
// implementation in use, or the generic kernel.
func writeReduceSwitch(dir, arch string) error {
	path, constraint, imports := filepath.Join(dir, "reduce_noasm.go"), noAsmConstraint(), []string(nil)
	if arch != "" {
		path, constraint = filepath.Join(dir, "reduce_dispatch_"+arch+".go"), "!purego"
		for _, r := range registry.Reductions {
			for _, t := range registry.ReduceTypes {
				if r.HasValue() && reduceEmitted[arch](r, t) {
					imports = []string{"unsafe"} // v's address
				}
			}
		}
	}
	g := newGoFile(path, constraint, "kernel", imports...)
	onePass := "false"
	for _, r := range registry.Reductions {
		for _, t := range registry.ReduceTypes {
			if arch != "" && r.Fold.Extreme() && reduceEmitted[arch](r, t) {
				// implFor, not Current: a generic call compiles in the
				// caller's package, where a plain function of this one
				// does not inline (see TestSmallPathsCallNothing).
				onePass = "implFor(classMemory, 0, false) != Generic"
			}
		}
	}
	g.doc("OnePassArg reports whether ArgMax and ArgMin of floats run kernels of their\nown with the implementation in use. Where they do not, their generic loop\nis slower than MaxOf (MinOf) followed by FindBits.")
	g.p("func OnePassArg[T Number]() bool { return %s }", onePass)
	g.p("")
	for _, r := range registry.Reductions {
		g.doc(fmt.Sprintf("%sPiece runs %s on one piece.", r.Name, r.Entry))
		g.p("func %sPiece[T Number](%s)%s {", r.Name, reduceOperands(r), reduceResult(r))
		if arch != "" {
			writeReduceKernelSwitch(g, r, arch)
		}
		ret := ""
		if r.Fold.Finds() {
			ret = "return "
		}
		g.p("%s%sGeneric(%s)", ret, r.Entry, reduceArgs(r))
		g.p("}")
		g.p("")
	}
	return g.write()
}

// writeReduceKernelSwitch writes the switch of a piece on the element type
// and the implementation in use, over the types with kernels on arch; a
// kernel call returns.
func writeReduceKernelSwitch(g *goFile, r registry.Reduction, arch string) {
	var ts []registry.Type
	for _, t := range registry.ReduceTypes {
		if reduceEmitted[arch](r, t) {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return
	}
	g.p("switch typeOf[T]() {")
	for _, t := range ts {
		g.p("case %s:", typeConst(t))
		args := []string{"len(a)"}
		if !r.Fold.Finds() {
			args = append(args, fmt.Sprintf("ptr[%s](acc)", t.GoName))
		}
		for _, in := range r.Inputs {
			args = append(args, fmt.Sprintf("ptr[%s](%s)", t.GoName, in))
		}
		if r.HasValue() {
			args = append(args, fmt.Sprintf("(*%s)(unsafe.Pointer(&v))", t.GoName))
		}
		g.p("switch implFor(classMemory, len(a)*%d, false) {", t.Size()*len(r.Inputs))
		for _, isa := range registry.ISAsOf(arch) {
			call := fmt.Sprintf("%s(%s)", registry.ReduceKernelName(r, t, isa), strings.Join(args, ", "))
			if !r.Fold.Finds() && reduceWholeRounds[arch](t, isa) {
				var rest []string
				for _, in := range r.Inputs {
					rest = append(rest, in+"[m:]")
				}
				g.p("case %s:", isa.Name)
				g.p("m := len(a) &^ (Lanes - 1)")
				g.p("%s", strings.Replace(call, "(len(a), ", "(m, ", 1))
				g.p("%sGeneric(acc, %s)", r.Entry, strings.Join(rest, ", "))
				g.p("return")
				continue
			}
			if v := reduceExtremeVectors[arch](t); r.Fold.Extreme() && v > 0 {
				g.p("case %s:", isa.Name)
				g.p("m := len(a) &^ %d", v-1)
				g.p("return extremeRest(a, m, %s, %v)", strings.Replace(call, "(len(a), ", "(m, ", 1), r.Fold == registry.FindMax)
				continue
			}
			if v := reduceExtremeVectors[arch](t); r.Fold.Valued() && v > 0 {
				g.p("case %s:", isa.Name)
				g.p("m := len(a) &^ %d", v-1)
				g.p("return valuedRest(a, m, %s, %v)", strings.Replace(call, "(len(a), ", "(m, ", 1), !r.Fold.Least())
				continue
			}
			if r.Fold.Finds() {
				g.p("case %s: return %s", isa.Name, call)
			} else {
				g.p("case %s: %s; return", isa.Name, call)
			}
		}
		g.p("}")
	}
	g.p("}")
}

// writeReduceTests writes internal/kernel/reductions_generated_test.go:
// every reduction with its entry and generic kernel on a common signature.
func writeReduceTests(dir string) error {
	g := newGoFile(filepath.Join(dir, "reductions_generated_test.go"), "", "kernel_test",
		"github.com/simdkit/elem/internal/kernel")
	g.doc("reductions describes every reduction for element type T.")
	g.p("func reductions[T kernel.Number]() []reduction[T] {")
	g.p("return []reduction[T]{")
	for _, r := range registry.Reductions {
		var in []string
		for i := range r.Inputs {
			in = append(in, fmt.Sprintf("in[%d]", i))
		}
		args := strings.Join(in, ", ")
		if !r.Fold.Finds() {
			args = "acc, " + args
		}
		if r.HasValue() {
			args += ", v"
		}
		call := fmt.Sprintf("kernel.%s(%s)", r.Entry, args)
		ref := fmt.Sprintf("kernel.%sGeneric(%s)", r.Entry, args)
		if r.Fold.Finds() {
			call, ref = "return "+call, "return "+ref
		} else {
			call, ref = call+"; return 0", ref+"; return 0"
		}
		g.p("{name: %q, inputs: %d, fold: %q, shifted: %v,", r.Name, len(r.Inputs), foldName(r.Fold), r.Shifted)
		g.p("run: func(acc []T, in [][]T, v T) int { %s },", call)
		g.p("ref: func(acc []T, in [][]T, v T) int { %s },", ref)
		g.p("},")
	}
	g.p("}")
	g.p("}")
	return g.write()
}

// foldName names a fold for the tests.
func foldName(f registry.Fold) string {
	return [...]string{"sum", "min", "max", "findbits", "findnan", "argmax", "argmin", "greatest", "least"}[f]
}
