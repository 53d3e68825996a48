// Package registry is the generator's table of elem: the operations,
// element types, kernel kinds, conversions, reductions and instruction-set
// levels that drive every generated file. Only the generator (./gen) imports
// it, so users of elem never compile it.
//
// Adding an operation is one row in Ops plus, for each back end, one entry
// in its emitter table (gen/x86_*.go, gen/arm64*.go): an instruction
// sequence, or the explicit "no vector form" entry, which runs the generic
// row loop on that instruction set. Everything with an op name in it (the op
// constants and names of elem and of internal/kernel, the named calls, the
// generic row loops, the kernels, the dispatch switches, the test tables) is
// generated from the row.
package registry

import (
	"fmt"
	"strings"
)

// Family is a group of operations with one operand layout, one Go op type
// and one set of named-call forms.
type Family struct {
	Name   string // "binary": in kernel names and doc comments
	OpType string // the Go type of its op values in elem and internal/kernel: "Op"
	// Inputs are the operands, in the order of the Go expression's {a},
	// {b}, {c}; their element types relate to the op's element type T.
	Inputs []Operand
	// Out is the result's element type: "T" or "bool".
	Out string
	// Kinds are the kernel kinds every op of the family has: which inputs
	// supply a row of n values (vector) and which one value per row.
	Kinds []Kind
	// Stream is whether the kernels have forms that write with
	// non-temporal stores (for outputs of a whole vector per step).
	Stream bool
	// Forms are the named calls every op of the family has, unless the op
	// lists its own: "%s" stands for the op's Named.
	Forms []Form
}

// Form is one named call of an op in package elem: a kernel kind, where an
// input with one value per row is a scalar parameter.
type Form struct {
	Name string // "%sScalar"
	Kind string // "vs"
	// Params name the inputs when the defaults (a, b, c for slices, s for
	// a scalar) would not say what they are: "lo", "hi".
	Params []string
}

// Operand is one input of a family's operations.
type Operand struct {
	Name string // "a": the parameter name of kernels and calls
	Type string // "T" (the op's element type) or "bool"
}

// Kind is the operand shape of a kernel: Vector[i] says whether input i
// is a row of n values, or one value per row (a scalar for one row).
type Kind struct {
	Name   string // "vv", "vs", "sv", "v", "vvv", ...: the letter of each input
	Vector []bool
}

// kind builds a Kind from its name: "v" for a vector input, "s" for one
// value per row.
func kind(name string) Kind {
	k := Kind{Name: name}
	for _, c := range name {
		k.Vector = append(k.Vector, c == 'v')
	}
	return k
}

// Const is the Go name of the kind's internal/kernel constant: "VV".
func (k Kind) Const() string { return strings.ToUpper(k.Name) }

// Mask is the kind's value in internal/kernel: bit i is set when input i is
// vector, so every family shares one Kind type.
func (k Kind) Mask() int {
	m := 0
	for i, s := range k.Vector {
		if s {
			m |= 1 << i
		}
	}
	return m
}

// The families. The order of the inputs is the order of the operands of the
// operation (never swapped: NaN payloads, and min and max on some CPUs,
// depend on it).
var (
	Binary = &Family{Name: "binary", OpType: "Op", Inputs: []Operand{{"a", "T"}, {"b", "T"}}, Out: "T",
		Kinds: kinds("vv", "vs", "sv"), Stream: true, Forms: []Form{{Name: "%s", Kind: "vv"}, {Name: "%sScalar", Kind: "vs"}}}
	Unary = &Family{Name: "unary", OpType: "UnaryOp", Inputs: []Operand{{"a", "T"}}, Out: "T",
		Kinds: kinds("v"), Stream: true, Forms: []Form{{Name: "%s", Kind: "v"}}}
	// Compare writes []bool: the output has a byte per element, so its
	// kernels have no streaming-store forms.
	Compare = &Family{Name: "compare", OpType: "CompareOp", Inputs: []Operand{{"a", "T"}, {"b", "T"}}, Out: "bool",
		Kinds: kinds("vv", "vs", "sv"), Forms: []Form{{Name: "%s", Kind: "vv"}, {Name: "%sScalar", Kind: "vs"}}}
	Ternary = &Family{Name: "ternary", OpType: "TernaryOp", Inputs: []Operand{{"a", "T"}, {"b", "T"}, {"c", "T"}}, Out: "T",
		Kinds: kinds("vvv", "vvs", "vsv", "svv", "vss", "svs", "ssv"), Stream: true}
	// Bitwise are the bitwise operations of the integer types.
	Bitwise = &Family{Name: "bitwise", OpType: "BitOp", Inputs: []Operand{{"a", "T"}, {"b", "T"}}, Out: "T",
		Kinds: kinds("vv", "vs", "sv"), Stream: true, Forms: []Form{{Name: "%s", Kind: "vv"}, {Name: "%sScalar", Kind: "vs"}}}
	// Shift shifts integers by a count, a uint as in Go's a << s.
	Shift = &Family{Name: "shift", OpType: "ShiftOp", Inputs: []Operand{{"a", "T"}, {"s", "uint"}}, Out: "T",
		Kinds: kinds("vs"), Stream: true, Forms: []Form{{Name: "%s", Kind: "vs"}}}
	// Selection picks, by a []bool, between two operands.
	Selection = &Family{Name: "selection", OpType: "SelectOp", Inputs: []Operand{{"cond", "bool"}, {"a", "T"}, {"b", "T"}}, Out: "T",
		Kinds: kinds("vvv", "vvs", "vsv", "vss", "svv", "svs", "ssv"), Stream: true}
)

// kinds builds Kinds from their names.
func kinds(names ...string) []Kind {
	var ks []Kind
	for _, n := range names {
		ks = append(ks, kind(n))
	}
	return ks
}

// Families lists every family.
var Families = []*Family{Binary, Unary, Compare, Ternary, Selection, Bitwise, Shift}

// Op is one elementwise operation.
type Op struct {
	Name   string // lower case, as in kernel names and String: "add"
	Family *Family
	// Types are the element types the op is defined on.
	Types []Type
	// Expr is the Go expression of the operation on the operands {a}, {b},
	// {c} of type T: the scalar code that the generic kernels run and every
	// other kernel must match bit for bit. {T} stands for the type.
	Expr string
	// Expr32, if set, replaces Expr for float32-based types, whose
	// expression often goes through float64 (float32(math.Sqrt(float64(x)))).
	Expr32 string
	// IntExpr, if set, replaces Expr for the integer types, where the
	// float expression would not give Go's integer result (Abs).
	IntExpr string
	// Formula is the operation as docs write it, when Expr is not that:
	// "math.Abs({a})" for "{T}(math.Abs(float64({a})))".
	Formula string
	// Doc describes the operation for the named call's doc comment, when
	// the expression alone does not say it.
	Doc string
	// Named is the name of the named call's flat vector form: "Add".
	Named string
	// Compute marks an op whose cost is its arithmetic unit (a divider, a
	// square root) rather than memory traffic: size-aware dispatch treats
	// it apart.
	Compute bool
	// FMAKind is the kind ("vs") of a Compute op whose kernel on
	// AVX-512 is a sequence of multiply-adds instead (division by one
	// value per row, from its reciprocal): size-aware dispatch treats
	// that kind as it does the math functions.
	FMAKind string
	// Forms are the op's named calls beyond the family's.
	Forms []Form
	// ScalarFirst is whether elem exports a named call with the scalar as
	// the first operand (ScalarSub). For the commutative ops it would differ
	// from the other order only in NaN payloads, so ScalarApply covers them.
	ScalarFirst bool
	// Math marks an op computed by a MathProgram (see vmath.go): a long
	// routine per element, so that even short slices run its kernels.
	Math bool
	// SignBlind marks an integer op whose bits on an unsigned type are its
	// bits on the signed type of the same size (two's complement: +, -, *,
	// the bitwise ops, <<): the unsigned types run the signed type's
	// kernels, which are not generated twice.
	SignBlind bool
}

// Ops lists every operation. Within a family, the order is that of the op
// constants (elem.OpAdd is 0): append new operations at the end of their
// family, or renumber users' serialised op values.
var Ops = []Op{
	{Name: "add", Family: Binary, Types: Numbers, Expr: "{a} + {b}", Named: "Add", SignBlind: true},
	{Name: "sub", Family: Binary, Types: Numbers, Expr: "{a} - {b}", Named: "Sub", ScalarFirst: true, SignBlind: true},
	{Name: "mul", Family: Binary, Types: Numbers, Expr: "{a} * {b}", Named: "Mul", SignBlind: true},
	{Name: "div", Family: Binary, Types: Floats, Expr: "{a} / {b}", Named: "Div", ScalarFirst: true, Compute: true, FMAKind: "vs"},
	{Name: "min", Family: Binary, Types: Numbers, Expr: "min({a}, {b})", Named: "Min",
		Doc: "Go's builtin min: NaN if either operand is NaN, and min(-0, +0) = -0"},
	{Name: "max", Family: Binary, Types: Numbers, Expr: "max({a}, {b})", Named: "Max",
		Doc: "Go's builtin max: NaN if either operand is NaN, and max(-0, +0) = +0"},
	mathBinaryOp("hypot", "Hypot", "sqrt({a}**2 + {b}**2)", "within 1 ulp, without overflow or underflow in between; +Inf if either is infinite, else NaN if either is NaN"),
	mathBinaryOp("atan2", "Atan2", "atan2({a}, {b})", "the angle of the point (x, y) = (b, a), in [-Pi, Pi], within 1 ulp; Go's special cases (signed zeros, infinities)"),
	mathBinaryOp("pow", "Pow", "{a}**{b}", "a to the power b, within 1 ulp over the whole range (large exponents, subnormal results); Go's special cases (math.Pow's list: x**±0 = 1, 1**y = 1, x**1 = x, signed zeros and infinities), NaN for a negative a and a finite b that is not an integer"),
	mathBinaryOp("expsub", "ExpSub", "exp({a} - {b})", "e^(a - b) with a - b rounded first, as Exp of Sub's result, in one pass: the exp(x - max) of softmax and log-sum-exp; within 1 ulp of e to the rounded difference. A NaN argument comes back quieted (a's first), and the NaN of Inf - Inf is Go's math.NaN()"),

	{Name: "and", Family: Bitwise, Types: Ints, Expr: "{a} & {b}", Named: "And", SignBlind: true},
	{Name: "or", Family: Bitwise, Types: Ints, Expr: "{a} | {b}", Named: "Or", SignBlind: true},
	{Name: "xor", Family: Bitwise, Types: Ints, Expr: "{a} ^ {b}", Named: "Xor", SignBlind: true},
	{Name: "andnot", Family: Bitwise, Types: Ints, Expr: "{a} &^ {b}", Named: "AndNot", ScalarFirst: true, SignBlind: true},

	{Name: "neg", Family: Unary, Types: Numbers, Expr: "-{a}", Named: "Neg", SignBlind: true,
		Doc: "Go's unary minus: on floats a sign flip (-0 for 0, a NaN keeps its payload); on integers two's-complement wrap-around, so that the most negative value (math.MinInt8 for int8) is its own negation and an unsigned a gives 2^bits - a"},
	// math.Abs clears the sign bit; through float64, a float32 signalling
	// NaN would come back quiet, so float32 clears its own sign bit.
	// On integers |a| is -a where a < 0, which wraps as Go's -a does: the
	// most negative value is its own absolute value.
	{Name: "abs", Formula: "math.Abs({a})", Family: Unary, Types: Numbers, Expr: "{T}(math.Abs(float64({a})))",
		Expr32: "{T}(math.Float32frombits(math.Float32bits(float32({a})) &^ (1 << 31)))", IntExpr: "Pick({a} < 0, -{a}, {a})", Named: "Abs",
		Doc: "on floats the sign bit cleared; on integers a, or -a where a < 0, with Go's wrap-around: Abs of the most negative value (math.MinInt8 for int8) is that value, as -a is, and the unsigned types are unchanged"},
	// float32(math.Sqrt(float64(x))) is the correctly rounded float32 square
	// root: a double's 53 bits are more than twice float32's 24 plus two.
	{Name: "sqrt", Formula: "math.Sqrt({a})", Family: Unary, Types: Floats, Expr: "{T}(math.Sqrt(float64({a})))", Named: "Sqrt", Compute: true,
		Doc: "correctly rounded in T"},
	{Name: "floor", Formula: "math.Floor({a})", Family: Unary, Types: Floats, Expr: "{T}(math.Floor(float64({a})))", Named: "Floor"},
	{Name: "ceil", Formula: "math.Ceil({a})", Family: Unary, Types: Floats, Expr: "{T}(math.Ceil(float64({a})))", Named: "Ceil"},
	{Name: "trunc", Formula: "math.Trunc({a})", Family: Unary, Types: Floats, Expr: "{T}(math.Trunc(float64({a})))", Named: "Trunc"},
	{Name: "roundeven", Formula: "math.RoundToEven({a})", Family: Unary, Types: Floats, Expr: "{T}(math.RoundToEven(float64({a})))", Named: "RoundToEven",
		Doc: "to the nearest integer, ties to even"},
	{Name: "round", Formula: "math.Round({a})", Family: Unary, Types: Floats, Expr: "{T}(math.Round(float64({a})))", Named: "Round",
		Doc: "to the nearest integer, ties away from zero"},
	mathOp("exp", "Exp", "e**{a}", "within 1 ulp; +Inf above the overflow threshold, +0 below the underflow one, subnormal between"),
	mathOp("log", "Log", "log({a})", "the natural logarithm, within 1 ulp; -Inf for ±0, NaN below 0, exact for subnormal a"),
	mathOp("exp2", "Exp2", "2**{a}", "within 1 ulp, as Exp"),
	mathOp("expm1", "Expm1", "e**{a} - 1", "within 1 ulp, accurate for a near 0 where Exp(a) - 1 is not; -1 below the underflow threshold"),
	mathOp("log2", "Log2", "log2({a})", "within 1 ulp; exact for powers of 2"),
	mathOp("log10", "Log10", "log10({a})", "within 1 ulp"),
	mathOp("log1p", "Log1p", "log(1 + {a})", "within 1 ulp, accurate for a near 0 where Log(1 + a) is not; -Inf at -1, NaN below"),
	mathOp("sigmoid", "Sigmoid", "1/(1 + e**-{a})", "the logistic function, within 1 ulp of the exact value (not of the composite's roundings); 0 and 1 at the ends, subnormal where the exact value is"),
	mathOp("tanh", "Tanh", "tanh({a})", "within 1 ulp; ±1 for large |a|"),
	mathOp("erf", "Erf", "erf({a})", "the error function, within 1 ulp; ±1 from |a| = 6 on"),
	mathOp("sin", "Sin", "sin({a})", "within 1 ulp for every finite a, however large (an exact reduction by pi/2); NaN for ±Inf"),
	mathOp("cos", "Cos", "cos({a})", "within 1 ulp for every finite a, however large; NaN for ±Inf"),

	{Name: "eq", Family: Compare, Types: Numbers, SignBlind: true, Expr: "{a} == {b}", Named: "Eq", Doc: "false when either is NaN (floats)"},
	{Name: "ne", Family: Compare, Types: Numbers, SignBlind: true, Expr: "{a} != {b}", Named: "Ne", Doc: "true when either is NaN (floats)"},
	{Name: "lt", Family: Compare, Types: Numbers, Expr: "{a} < {b}", Named: "Lt", Doc: "false when either is NaN (floats); unsigned order for the unsigned types"},
	{Name: "le", Family: Compare, Types: Numbers, Expr: "{a} <= {b}", Named: "Le", Doc: "false when either is NaN (floats); unsigned order for the unsigned types"},
	{Name: "gt", Family: Compare, Types: Numbers, Expr: "{a} > {b}", Named: "Gt", Doc: "false when either is NaN (floats); unsigned order for the unsigned types"},
	{Name: "ge", Family: Compare, Types: Numbers, Expr: "{a} >= {b}", Named: "Ge", Doc: "false when either is NaN (floats); unsigned order for the unsigned types"},

	{Name: "fma", Formula: "{a}*{b} + {c}", Family: Ternary, Types: Floats, Expr: "{T}(math.FMA(float64({a}), float64({b}), float64({c})))",
		Expr32: "{T}(fma32(float32({a}), float32({b}), float32({c})))", Named: "FMA",
		Doc:   "one rounding, as math.FMA; for float32, the correctly rounded float32 result",
		Forms: []Form{{Name: "FMA", Kind: "vvv"}, {Name: "MulScalarAdd", Kind: "vsv"}, {Name: "MulAddScalar", Kind: "vvs"}}},
	{Name: "clamp", Family: Ternary, Types: Numbers, Expr: "min(max({a}, {b}), {c})", Named: "Clamp",
		Doc:   "Go's min and max: NaN if any operand is NaN (floats); hi wins where lo > hi",
		Forms: []Form{{Name: "Clamp", Kind: "vss", Params: []string{"a", "lo", "hi"}}}},
	// The square first in the sum: with both NaN, it carries the square's
	// payload, as the Go compiler orders the sum (the square in a register,
	// c folded from memory).
	{Name: "sqdiffadd", Formula: "({a} - {b})**2 + {c}", Family: Ternary, Types: Floats,
		Expr: "{T}({T}({T}({a}-{b})*{T}({a}-{b})) + {c})", Named: "SqDiffAdd",
		Doc:   "Each of the three steps rounded to T, the square not fused into the sum: the squared deviations of a variance, or the terms of a squared distance, accumulated in one pass with the bits of Sub, Mul and Add in turn",
		Forms: []Form{{Name: "SqDiffAdd", Kind: "vvv"}}},

	{Name: "shl", Family: Shift, Types: Ints, Expr: "{a} << {s}", Named: "Shl", SignBlind: true,
		Doc: "Go's <<: 0 once s reaches the width"},
	{Name: "shr", Family: Shift, Types: Ints, Expr: "{a} >> {s}", Named: "Shr",
		Doc: "Go's >>: arithmetic for signed types, logical for unsigned; -1 or 0 once s reaches the width"},

	{Name: "select", Formula: "{a} if {cond}, else {b}", Family: Selection, Types: Numbers, SignBlind: true, Expr: "Pick({cond}, {a}, {b})", Named: "Select",
		Doc: "Numpy's where",
		Forms: []Form{{Name: "Select", Kind: "vvv"}, {Name: "SelectScalar", Kind: "vvs"},
			{Name: "ScalarSelect", Kind: "vsv", Params: []string{"cond", "s", "b"}}}},
}

// NamedForms are the op's named calls in package elem, with their names
// resolved.
func (o Op) NamedForms() []Form {
	forms := o.Forms
	if forms == nil {
		forms = o.Family.Forms
	}
	if o.ScalarFirst {
		forms = append(append([]Form(nil), forms...), Form{Name: "Scalar%s", Kind: "sv"})
	}
	var out []Form
	for _, f := range forms {
		f.Name = strings.ReplaceAll(f.Name, "%s", o.Named)
		out = append(out, f)
	}
	return out
}

// FindKind returns family f's kind named name, and panics if it has none.
func (f *Family) FindKind(name string) Kind {
	for _, k := range f.Kinds {
		if k.Name == name {
			return k
		}
	}
	panic(fmt.Sprintf("asm: family %s has no kind %q", f.Name, name))
}

// Title is the name as it starts an exported Go identifier: "Add".
func (o Op) Title() string { return strings.ToUpper(o.Name[:1]) + o.Name[1:] }

// Const is the op's constant in elem and internal/kernel: "OpAdd".
func (o Op) Const() string { return "Op" + o.Named }

// Index is the op's value: its position within its family.
func (o Op) Index() int {
	i := 0
	for _, p := range Ops {
		if p.Name == o.Name {
			return i
		}
		if p.Family == o.Family {
			i++
		}
	}
	panic("asm: op " + o.Name + " is not in Ops")
}

// ExprOf is the Go expression of the op on the given operand expressions,
// for element type t.
func (o Op) ExprOf(t Type, operands ...string) string {
	e := o.Expr
	switch {
	case o.Expr32 != "" && t.Float && t.Bits == 32:
		e = o.Expr32
	case o.IntExpr != "" && !t.Float:
		e = o.IntExpr
	}
	pairs := []string{"{T}", "T"}
	for i, x := range operands {
		pairs = append(pairs, "{"+o.Family.Inputs[i].Name+"}", x)
	}
	return strings.NewReplacer(pairs...).Replace(e)
}

// FormulaOf is the operation as docs write it, on the given operands.
func (o Op) FormulaOf(operands ...string) string {
	if o.Formula == "" {
		return o.ExprOf(Float64, operands...)
	}
	var pairs []string
	for i, x := range operands {
		pairs = append(pairs, "{"+o.Family.Inputs[i].Name+"}", x)
	}
	return strings.NewReplacer(pairs...).Replace(o.Formula)
}

// KernelType is the element type whose kernels run op o on t: t itself,
// or for a SignBlind op on an unsigned type, the signed type of its size.
func (o Op) KernelType(t Type) Type {
	if !o.SignBlind || t.Float || t.Signed {
		return t
	}
	for _, u := range Ints {
		if u.Signed && u.Bits == t.Bits {
			return u
		}
	}
	panic("asm: no signed type of " + t.GoName + "'s size")
}

// Supports reports whether the op is defined on t.
func (o Op) Supports(t Type) bool {
	for _, u := range o.Types {
		if u.GoName == t.GoName {
			return true
		}
	}
	return false
}

// Types lists the element types of family f: the union of its ops'.
func (f *Family) Types() []Type {
	var ts []Type
	for _, t := range Types {
		for _, o := range OpsOf(f) {
			if o.Supports(t) {
				ts = append(ts, t)
				break
			}
		}
	}
	return ts
}

// OpsOf lists the ops of family f in constant order.
func OpsOf(f *Family) []Op {
	var ops []Op
	for _, o := range Ops {
		if o.Family == f {
			ops = append(ops, o)
		}
	}
	return ops
}

// FindOp returns the op named name, and panics if there is none: the
// emitter tables must name real ops.
func FindOp(name string) Op {
	for _, o := range Ops {
		if o.Name == name {
			return o
		}
	}
	panic(fmt.Sprintf("asm: no op %q", name))
}

// KernelName is the name of the assembly kernel of op on kind k and
// element type t for instruction set isa: "addVVF32AVX2".
func KernelName(o Op, k Kind, t Type, isa *ISA) string {
	return o.Name + k.Const() + t.Short + isa.Name
}

// Param is one parameter of a kernel: every one is a pointer or an int, 8
// bytes in the argument frame of both architectures.
type Param struct {
	Name   string
	GoType string // "int", "*float32", "*bool"
}

// Offset is the byte offset of parameter i in the argument frame.
func Offset(i int) int { return 8 * i }

// Params lists the parameters of a kernel of family f on element type t:
// m, n, then dst and each input, each followed by its leading stride in
// elements (dst, ldd, a, lda, ...).
func Params(f *Family, t Type) []Param {
	ps := []Param{{"m", "int"}, {"n", "int"}, {"dst", "*" + goType(f.Out, t)}, {"ldd", "int"}}
	for _, in := range f.Inputs {
		ps = append(ps, Param{in.Name, "*" + goType(in.Type, t)}, Param{"ld" + in.Name, "int"})
	}
	return ps
}

// Signature is the Go signature of a kernel stub of family f on t: the
// same on every architecture.
func Signature(f *Family, t Type) string {
	var parts []string
	for _, p := range Params(f, t) {
		parts = append(parts, p.Name+" "+p.GoType)
	}
	return "func(" + strings.Join(parts, ", ") + ")"
}

// goType resolves an operand type ("T" or "bool") for element type t.
func goType(typ string, t Type) string {
	if typ == "T" {
		return t.GoName
	}
	return typ
}
