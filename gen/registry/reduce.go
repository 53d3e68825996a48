package registry

import "strings"

// Reductions are the registry's fourth arity beside the elementwise
// families: operations that fold one or two vectors into one value (or an
// index). Their kernels do not write an output row; they fold a piece of
// the input into a small state that the caller keeps across pieces (so that
// a long reduction can be split for preemption and still be one fold), or
// search a piece for an index.

// Fold is how a reduction combines its terms.
type Fold uint8

const (
	// FoldSum adds terms in elem's canonical order: the state has
	// ReduceLanes accumulators, term i goes to accumulator i mod
	// ReduceLanes (each accumulator a left-to-right sum), and the caller
	// combines the accumulators with one fixed pairwise tree. Every kernel
	// keeps exactly these accumulators, lane j of its accumulator registers
	// being accumulator j, so every implementation gives the same bits.
	// Integer folds (sums wrap around, and min and max) do not depend on the
	// order: there a kernel only keeps the sum (min, max) of the
	// accumulators and the terms; the generic kernel folds every term into
	// the first accumulator, the plain loop.
	FoldSum Fold = iota
	// FoldMin and FoldMax fold with Go's builtin min or max. The result does
	// not depend on the order (NaN wins, -0 < +0, and no two other values
	// compare equal), so kernels may fold in any order; which NaN the caller
	// returns is decided by the caller (see FindNaN).
	FoldMin
	FoldMax
	// FindBits returns the first index whose element has exactly the bits
	// of a given value, or the length when there is none.
	FindBits
	// FindNaN returns the first index of a NaN, or the length.
	FindNaN
	// FindMax and FindMin return the first index of the greatest (least)
	// element by the ordered comparison, where -0 and +0 tie, or -1 if
	// there is a NaN; 0 for no elements. The index is a property of the
	// values, not of an order of operations, so kernels may keep any lanes.
	// Go's rules (NaN wins, -0 < +0) are the caller's: it looks for the
	// first NaN, or the first zero of the other sign, only when the kernel
	// says so.
	FindMax
	FindMin
	// FindGreatest and FindLeast return the bits of the greatest (least)
	// element by the ordered comparison as an int (a float32's
	// zero-extended), those of +0 for a zero of either sign, or -1 if there
	// is a NaN; -Inf's (+Inf's) for no elements. The value depends on the
	// values only, so kernels may keep any lanes, and without positions to
	// keep they take half the instructions of FindMax. Go's rules are the
	// caller's: it looks for the first NaN, or for a zero of the sign Go's
	// max (min) prefers, only when the kernel says so.
	FindGreatest
	FindLeast
)

// Finds reports whether f searches for an index rather than folding.
func (f Fold) Finds() bool { return f >= FindBits }

// Extreme reports whether f is FindMax or FindMin.
func (f Fold) Extreme() bool { return f == FindMax || f == FindMin }

// Valued reports whether f is FindGreatest or FindLeast.
func (f Fold) Valued() bool { return f == FindGreatest || f == FindLeast }

// Least reports whether f looks for the least element: FindMin or
// FindLeast.
func (f Fold) Least() bool { return f == FindMin || f == FindLeast }

// Beats is the Go comparison by which an element replaces the extreme of
// FindMax or FindGreatest (">"), FindMin or FindLeast ("<").
func (f Fold) Beats() string {
	if f.Least() {
		return "<"
	}
	return ">"
}

// Reduction is one reduction operation of the registry.
type Reduction struct {
	Name string // lower case, in kernel names: "dot"
	// Inputs are the vector operands, in the order of Term's {a}, {b}.
	Inputs []string
	Fold   Fold
	// Term is the Go expression of element i's contribution on the
	// operands {a}, {b} of type {T}; a product is converted to {T}
	// explicitly, which rounds it and so forbids the compiler to fuse it
	// into the accumulation (Go fuses x*y + z into an FMA on arm64).
	Term string
	// Shifted says the term reads a value v beside the inputs ({v}), the
	// same for every element: the mean a variance subtracts.
	Shifted bool
	// Entry is the trusted entry's name in internal/kernel: "Dot".
	Entry string
	Doc   string // what the entry computes, for its doc comment
}

// ReduceLanes is the number of accumulators of a fold, whatever the
// element type: 128 bytes of float32 or 256 of float64, whole registers on
// every instruction set (two or four zmm, four or eight ymm, eight or
// sixteen NEON q registers), and as many independent chains of additions.
const ReduceLanes = 32

// ReduceTypes are the element types the reductions are defined on. On the
// integer types a sum wraps around in T as Go's + and * do; wrap-around
// addition is associative, so every order, the canonical one included,
// gives the bits of the plain left-to-right loop.
var ReduceTypes = Numbers

// Supports reports whether r is defined on t: FindNaN only on the floats
// (an integer is never a NaN, and its generic kernel returns len(a)), and
// FindMax and FindMin too, and FindGreatest and FindLeast (integers take MaxOf and FindBits, whose kernels
// are as fast as integer lanes allow, and whose index lanes would overflow
// in 8- and 16-bit lanes), and the shifted folds (variances of integer data
// are computed on floats; their generic kernels serve the integer types).
func (r Reduction) Supports(t Type) bool {
	return t.Float || r.Fold != FindNaN && !r.Fold.Extreme() && !r.Fold.Valued() && !r.Shifted
}

// HasValue reports whether r's kernels take the value v beside the inputs:
// the value FindBits looks for, a shifted fold's shift.
func (r Reduction) HasValue() bool { return r.Fold == FindBits || r.Shifted }

// Reductions lists every reduction.
var Reductions = []Reduction{
	{Name: "sum", Inputs: []string{"a"}, Fold: FoldSum, Term: "{a}", Entry: "Sum",
		Doc: "adds a into the accumulators acc in the canonical order"},
	{Name: "dot", Inputs: []string{"a", "b"}, Fold: FoldSum, Term: "{T}({a} * {b})", Entry: "Dot",
		Doc: "adds the products a[i]*b[i], each rounded to T, into acc in the canonical order"},
	{Name: "sumsq", Inputs: []string{"a"}, Fold: FoldSum, Term: "{T}({a} * {a})", Entry: "SumSq",
		Doc: "adds the squares a[i]*a[i], each rounded to T, into acc in the canonical order"},
	// SqDev gives the bits of a subtraction pass followed by SumSq, without
	// the pass: a variance's second pass reads its data once.
	{Name: "sqdev", Inputs: []string{"a"}, Fold: FoldSum, Shifted: true, Term: "{T}({T}({a} - {v}) * {T}({a} - {v}))", Entry: "SqDev",
		Doc: "adds the squared deviations (a[i]-v)*(a[i]-v), difference and square each rounded to T, into acc in the canonical order"},
	{Name: "minof", Inputs: []string{"a"}, Fold: FoldMin, Term: "{a}", Entry: "MinOf",
		Doc: "folds a into acc with Go's min (on floats a NaN wins, -0 < +0)"},
	{Name: "maxof", Inputs: []string{"a"}, Fold: FoldMax, Term: "{a}", Entry: "MaxOf",
		Doc: "folds a into acc with Go's max (on floats a NaN wins, -0 < +0)"},
	{Name: "findbits", Inputs: []string{"a"}, Fold: FindBits, Entry: "FindBits",
		Doc: "returns the first index i with the bits of a[i] equal to those of v (for floats: -0 is not +0), or len(a)"},
	{Name: "findnan", Inputs: []string{"a"}, Fold: FindNaN, Entry: "FindNaN",
		Doc: "returns the first index of a NaN in a, or len(a)"},
	{Name: "argmax", Inputs: []string{"a"}, Fold: FindMax, Entry: "ArgMax",
		Doc: "returns the first index of the greatest element of a by > (-0 and +0 tie), or -1 if a holds a NaN (0 if a is empty)"},
	{Name: "argmin", Inputs: []string{"a"}, Fold: FindMin, Entry: "ArgMin",
		Doc: "returns the first index of the least element of a by < (-0 and +0 tie), or -1 if a holds a NaN (0 if a is empty)"},
	{Name: "greatest", Inputs: []string{"a"}, Fold: FindGreatest, Entry: "GreatestBits",
		Doc: "returns the bits of the greatest element of a by > as an int (a float32's zero-extended), +0's for a zero of either sign, or -1 if a holds a NaN (-Inf's if a is empty)"},
	{Name: "least", Inputs: []string{"a"}, Fold: FindLeast, Entry: "LeastBits",
		Doc: "returns the bits of the least element of a by < as an int (a float32's zero-extended), +0's for a zero of either sign, or -1 if a holds a NaN (+Inf's if a is empty)"},
}

// ReduceKernelName is the name of the kernel of r on t for isa:
// "dotF32AVX2".
func ReduceKernelName(r Reduction, t Type, isa *ISA) string {
	return r.Name + t.Short + isa.Name
}

// ReduceParams lists a kernel's parameters, every one 8 bytes: n, then the
// state (acc) of a fold, the inputs, and the value (v) of FindBits or of a
// shifted fold; a find returns an int after them.
func ReduceParams(r Reduction, t Type) []Param {
	ps := []Param{{"n", "int"}}
	if !r.Fold.Finds() {
		ps = append(ps, Param{"acc", "*" + t.GoName})
	}
	for _, in := range r.Inputs {
		ps = append(ps, Param{in, "*" + t.GoName})
	}
	if r.HasValue() {
		ps = append(ps, Param{"v", "*" + t.GoName})
	}
	return ps
}

// ReduceSignature is the Go signature of a kernel stub of r on t.
func ReduceSignature(r Reduction, t Type) string {
	var parts []string
	for _, p := range ReduceParams(r, t) {
		parts = append(parts, p.Name+" "+p.GoType)
	}
	sig := "func(" + strings.Join(parts, ", ") + ")"
	if r.Fold.Finds() {
		sig += " int"
	}
	return sig
}

// TermOf is r's term on the given operand expressions for element type
// name typ.
func (r Reduction) TermOf(typ string, operands ...string) string {
	pairs := []string{"{T}", typ, "{v}", "v"}
	for i, x := range operands {
		pairs = append(pairs, "{"+r.Inputs[i]+"}", x)
	}
	return strings.NewReplacer(pairs...).Replace(r.Term)
}
