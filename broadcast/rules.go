package broadcast

import "fmt"

// None applies the NONE rule (no broadcasting): a and b must be equal, rank
// included, so () and (1) are incompatible. It returns a copy of the common
// shape. A rank mismatch wraps [ErrIncompatible] and [ErrRank]; a size
// mismatch wraps [ErrIncompatible].
func None(a, b Shape) (Shape, error) {
	if err := a.validate("a"); err != nil {
		return nil, err
	}
	if err := b.validate("b"); err != nil {
		return nil, err
	}
	if len(a) != len(b) {
		return nil, newError(errs(ErrIncompatible, ErrRank),
			"shapes %v and %v are incompatible without broadcasting: rank %d of a must match rank %d of b",
			a.Clone(), b.Clone(), len(a), len(b))
	}
	for d := len(a) - 1; d >= 0; d-- {
		if a[d] != b[d] {
			return nil, newError(errs(ErrIncompatible),
				"shapes %v and %v are incompatible without broadcasting: size %d of a must match size %d of b at dimension %d",
				a.Clone(), b.Clone(), a[d], b[d], d)
		}
	}
	return a.Clone(), nil
}

// Numpy applies the NUMPY rule to any number of shapes and returns the
// broadcast result. Shapes are right-aligned and the shorter ones padded with
// leading 1s; in each aligned dimension the sizes other than 1 must all be
// equal, and the result takes that size (or 1 if all are 1). So 0 with 1
// gives 0, 0 with a size above 1 is incompatible, two rank-0 shapes give rank
// 0, and no shapes at all give rank 0.
//
// An incompatible pair wraps [ErrIncompatible]; its message names the shapes,
// the dimension of the result, and the two operands ("a" and "b" for two
// shapes, "operand i" otherwise) with their sizes. A result whose element
// count overflows int wraps [ErrOverflow].
func Numpy(shapes ...Shape) (Shape, error) {
	return numpy(nil, shapes)
}

// Bidirectional applies OpenVINO's bidirectional broadcast of an array of
// shape in to the shape target: the NUMPY rule on (in, target). The result
// may differ from target: broadcasting (5) to (1) gives (5), and (3,1) to
// (2,1,6) gives (2,3,6). Errors are those of [Numpy], with the operands
// named "input" and "target".
func Bidirectional(in, target Shape) (Shape, error) {
	return numpy([]string{"input", "target"}, []Shape{in, target})
}

// numpy implements [Numpy], naming operand i names[i] in messages, or as
// operandName does when names is nil.
func numpy(names []string, shapes []Shape) (Shape, error) {
	name := func(i int) string { // only on the error path: a name may cost a Sprintf
		if names == nil {
			return operandName(len(shapes), i)
		}
		return names[i]
	}
	rank := 0
	for i, s := range shapes {
		if s.validate("") != nil {
			return nil, s.validate(name(i))
		}
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	if d, i, j := numpyInto(out, shapes); d >= 0 {
		return nil, newError(errs(ErrIncompatible),
			"shapes %s are incompatible: size %d of %s must match size %d of %s at dimension %d",
			listShapes(len(shapes), func(i int) string { return shapes[i].String() }), out[d], name(i), sizeAt(shapes[j], len(out)-d), name(j), d)
	}
	if _, ok := count(out); !ok {
		return nil, newError(errs(ErrOverflow),
			"the broadcast result %v of shapes %s is too large: the product of its sizes overflows int",
			out, listShapes(len(shapes), func(i int) string { return shapes[i].String() }))
	}
	return out, nil
}

// numpyInto is the NUMPY rule, its one implementation: it writes the result
// of shapes with no negative size into out, whose length is their largest
// rank. Where two sizes conflict it stops and returns the output dimension and
// the operands that set the size there (owner) and that differ from it
// (other), innermost dimension first; otherwise dim is -1.
func numpyInto(out []int, shapes []Shape) (dim, owner, other int) {
	rank := len(out)
	for d := rank - 1; d >= 0; d-- {
		out[d] = 1
		owner = -1 // first operand with a size other than 1 here
		for i, s := range shapes {
			k := d - (rank - len(s))
			if k < 0 || s[k] == 1 {
				continue
			}
			if owner < 0 {
				owner, out[d] = i, s[k]
				continue
			}
			if s[k] != out[d] {
				return d, owner, i
			}
		}
	}
	return -1, 0, 0
}

// sizeAt returns the size of s at position i from the right (1-based), or 1
// past its rank.
func sizeAt(s Shape, i int) int {
	if i > len(s) {
		return 1
	}
	return s[len(s)-i]
}

// InPlace checks PyTorch's in-place rule for a.op_(b): the operation writes
// its result into a, so the NUMPY result of (a, b) must be exactly a's shape,
// rank included ((3).add_((1,3)) is refused because the result is (1,3)).
//
// If a and b do not broadcast at all, the error is that of [Numpy] (wrapping
// [ErrIncompatible]). If they broadcast to a shape other than a, the error
// wraps [ErrInPlace] and, like PyTorch's, names the expanded size of a, the
// existing size of b and the dimension, counted in a.
func InPlace(a, b Shape) error {
	_, err := InPlaceShape(a, b)
	return err
}

// InPlaceShape applies the rule of [InPlace] and returns the result shape, a
// copy of a; its errors are those of InPlace.
func InPlaceShape(a, b Shape) (Shape, error) {
	out, err := Numpy(a, b)
	if err != nil {
		return nil, err
	}
	if len(out) != len(a) {
		return nil, newError(errs(ErrInPlace),
			"cannot write the result of shapes %v and %v in place into a: the result %v has rank %d but a has rank %d",
			a.Clone(), b.Clone(), out, len(out), len(a))
	}
	for d := len(a) - 1; d >= 0; d-- {
		if out[d] != a[d] {
			k := d - (len(a) - len(b)) // rank(b) <= rank(a) here
			return nil, newError(errs(ErrInPlace),
				"cannot write the result of shapes %v and %v in place into a: the expanded size %d of a must match the existing size %d of b at non-singleton dimension %d (the result would be %v)",
				a.Clone(), b.Clone(), a[d], b[k], d, out)
		}
	}
	return out, nil
}

// PDPD applies OpenVINO's PDPD rule: b is broadcast onto a, starting at
// dimension axis of a, and the result is a's shape. The steps, in order:
//
//  1. rank(b) must not exceed rank(a), counting b's trailing 1s (else
//     [ErrRank] and [ErrIncompatible]);
//  2. axis -1 (the default) means rank(a) - rank(b), with b's untrimmed rank;
//     any other negative axis wraps [ErrAxis];
//  3. b's trailing 1s are trimmed ((3,1) becomes (3)), and the trimmed b must
//     fit: axis + rank(trimmed b) <= rank(a) (else [ErrAxis], with
//     [ErrIncompatible] when axis itself is within rank(a));
//  4. each trimmed b size must equal the size of a under it, or be 1. Only b
//     broadcasts: b > 1 over a 1 is an error, and so is b = 0 over a 1, while
//     b = 1 over a 0 is fine ([ErrIncompatible]).
//
// See [AlignPDPD] for b expressed dimension by dimension against a.
func PDPD(a, b Shape, axis int) (Shape, error) {
	if _, err := AlignPDPD(a, b, axis); err != nil {
		return nil, err
	}
	return a.Clone(), nil
}

// AlignPDPD applies the rule of [PDPD] and returns b as a shape of rank(a):
// 1 before axis, b's trimmed sizes from axis on, 1 after them. It describes
// the same contiguous data as b and broadcasts onto a under the NUMPY rule,
// so [Strides](AlignPDPD(a, b, axis), a) gives b's strides over the result.
func AlignPDPD(a, b Shape, axis int) (Shape, error) {
	start, tb, err := pdpdWindow(a, b, axis)
	if err != nil {
		return nil, err
	}
	aligned := make(Shape, len(a))
	for d := range aligned {
		aligned[d] = 1
	}
	copy(aligned[start:], tb)
	return aligned, nil
}

// pdpdWindow applies the rule of [PDPD]: b with its trailing 1s trimmed (tb)
// sits on the dimensions of a from start on.
func pdpdWindow(a, b Shape, axis int) (start int, tb Shape, err error) {
	if err := a.validate("a"); err != nil {
		return 0, nil, err
	}
	if err := b.validate("b"); err != nil {
		return 0, nil, err
	}
	if len(b) > len(a) {
		return 0, nil, newError(errs(ErrIncompatible, ErrRank),
			"pdpd shapes %v and %v are incompatible: rank %d of b exceeds rank %d of a",
			a.Clone(), b.Clone(), len(b), len(a))
	}
	if axis == -1 {
		axis = len(a) - len(b)
	} else if axis < 0 {
		return 0, nil, newError(errs(ErrAxis),
			"pdpd axis %d is invalid for shapes %v and %v: the only negative axis allowed is -1 (the default, rank(a)-rank(b))",
			axis, a.Clone(), b.Clone())
	}
	if axis > len(a) {
		return 0, nil, newError(errs(ErrAxis),
			"pdpd axis %d is invalid for shapes %v and %v: it exceeds rank %d of a",
			axis, a.Clone(), b.Clone(), len(a))
	}
	tb = trimTrailingOnes(b)
	if axis+len(tb) > len(a) {
		trimmed := ""
		if len(tb) != len(b) {
			trimmed = fmt.Sprintf(" (trimmed to %v)", tb.Clone())
		}
		return 0, nil, newError(errs(ErrIncompatible, ErrAxis),
			"pdpd shapes %v and %v are incompatible at axis %d: b%s does not fit in a: axis %d + rank %d of b exceeds rank %d of a",
			a.Clone(), b.Clone(), axis, trimmed, axis, len(tb), len(a))
	}
	for j := len(tb) - 1; j >= 0; j-- {
		ad, bd := a[axis+j], tb[j]
		if bd != ad && bd != 1 {
			return 0, nil, newError(errs(ErrIncompatible),
				"pdpd shapes %v and %v are incompatible at axis %d: size %d of b must match size %d of a at dimension %d of a (dimension %d of b); only b broadcasts, and only from size 1",
				a.Clone(), b.Clone(), axis, bd, ad, axis+j, j)
		}
	}
	return axis, tb, nil
}

// ruleKind identifies a binary rule.
type ruleKind uint8

const (
	kindNone ruleKind = iota
	kindNumpy
	kindPDPD
)

// Rule is a binary broadcast rule as OpenVINO's auto_broadcast attribute
// names them: [RuleNone], [RuleNumpy], or [RulePDPD] with an axis. The zero
// Rule is RuleNone. A planner takes a Rule and calls [Rule.Layout].
type Rule struct {
	kind ruleKind
	axis int
}

var (
	// RuleNone is the NONE rule of [None]: shapes must be equal.
	RuleNone = Rule{kind: kindNone}
	// RuleNumpy is the NUMPY rule of [Numpy].
	RuleNumpy = Rule{kind: kindNumpy}
)

// RulePDPD returns the PDPD rule of [PDPD] with the given axis (-1 for the
// default, rank(a)-rank(b)). The axis is checked when the rule is applied.
func RulePDPD(axis int) Rule { return Rule{kind: kindPDPD, axis: axis} }

// String returns "none", "numpy" or "pdpd(axis=N)".
func (r Rule) String() string {
	switch r.kind {
	case kindNumpy:
		return "numpy"
	case kindPDPD:
		return fmt.Sprintf("pdpd(axis=%d)", r.axis)
	default:
		return "none"
	}
}

// Shape applies r to a and b and returns the result shape, as [None],
// [Numpy] or [PDPD] does.
func (r Rule) Shape(a, b Shape) (Shape, error) {
	switch r.kind {
	case kindNumpy:
		return Numpy(a, b)
	case kindPDPD:
		return PDPD(a, b, r.axis)
	default:
		return None(a, b)
	}
}

// Layout applies r to a and b and returns the result shape with the strides
// of a and b over it (Strides[0] for a, Strides[1] for b), as [NoneLayout],
// [NumpyLayout] or [PDPDLayout] does.
func (r Rule) Layout(a, b Shape) (Layout, error) {
	switch r.kind {
	case kindNumpy:
		return NumpyLayout(a, b)
	case kindPDPD:
		return PDPDLayout(a, b, r.axis)
	default:
		return NoneLayout(a, b)
	}
}
