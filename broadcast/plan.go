package broadcast

import (
	"math"
	"math/bits"
)

// inlineDims is how many merged dimensions above the inner block a Plan
// holds without a heap allocation. After size-1 dimensions are dropped and contiguous ones merged,
// real broadcasts have at most a few.
const inlineDims = 4

// tinyBlock is the largest inner block computed row by row with elem's
// one-dimensional calls, whose short-slice paths are Go loops: below it a
// checked two-dimensional kernel call costs more than the elements.
const tinyBlock = 16

// dim is one merged output dimension: its size and the element stride of the
// output (d) and of each input (a, b) along it.
type dim struct{ size, d, a, b int }

// Plan is a broadcast of two operands onto an output, resolved once into
// kernel calls: an m x n block that one elem.Apply2D call computes with its
// row loop inside the kernel, repeated over the remaining (outer) dimensions
// by an odometer over precomputed offsets. A Plan is immutable after it is
// built and safe for concurrent use; running it allocates nothing.
type Plan struct {
	out, aShape, bShape Shape      // for Out and messages
	batchA, batchB      BatchShape // minibatch plans: the operands' shapes, for messages
	outLen, aLen, bLen  int
	empty               bool // the output has no elements
	aWhole, bWhole      bool // the input is laid out exactly as the output, so dst may be it
	m, n                int  // the inner block
	ldd, lda, ldb       int
	inca, incb          int
	dims                [inlineDims + 2]dim // the merged dimensions, innermost first: n, m, then the outer ones
	nDims               int
	moreDims            []dim // all merged dimensions, when there are more than fit in dims
	rowA, rowB          bool  // the inner block is a dense matrix op a repeated row of a (rowA) or of b (rowB)
	tiny                bool  // the inner block is so small that elements are cheaper than a kernel call
}

// NewPlan resolves rule for operands of shapes a and b. Run then computes
// dst = a op b with dst of shape p.Out().
func NewPlan(rule Rule, a, b Shape) (*Plan, error) {
	out, err := rule.Shape(a, b)
	if err != nil {
		return nil, err
	}
	bAligned := b
	if rule.kind == kindPDPD {
		if bAligned, err = AlignPDPD(a, b, rule.axis); err != nil {
			return nil, err
		}
	}
	p := &Plan{}
	if err := p.build(a, bAligned, true); err != nil {
		return nil, err
	}
	p.out, p.aShape, p.bShape = out.Clone(), a.Clone(), b.Clone()
	return p, nil
}

// NewInPlacePlan resolves PyTorch's in-place a.op_(b): Run(p, op, a, a, b)
// then writes the result into a, whose shape the broadcast must not change.
func NewInPlacePlan(a, b Shape) (*Plan, error) {
	if err := InPlace(a, b); err != nil {
		return nil, err
	}
	return NewPlan(RuleNumpy, a, b)
}

// NewMinibatchPlan resolves primitiv's minibatch broadcast of a and b, whose
// data is batch-major. Run then computes dst of shape Minibatch(a, b).
func NewMinibatchPlan(a, b BatchShape) (*Plan, error) {
	out, err := Minibatch(a, b)
	if err != nil {
		return nil, err
	}
	p := &Plan{batchA: clone(a), batchB: clone(b)}
	if err := p.initMinibatch(a, b); err != nil {
		return nil, err
	}
	p.out, _ = out.Flat()
	return p, nil
}

func clone(s BatchShape) BatchShape { return BatchShape{Dims: s.Dims.Clone(), Batch: s.Batch} }

// initMinibatch plans a and b as their flat (Batch, Volume) views, which
// broadcast under NUMPY exactly as primitiv's rule allows once the rule
// itself has been checked. It allocates nothing unless the shapes are bad.
func (p *Plan) initMinibatch(a, b BatchShape) error {
	va, okA := count(a.Dims)
	vb, okB := count(b.Dims)
	valid := okA && okB && a.Batch >= 1 && b.Batch >= 1 && va > 0 && vb > 0
	dimsOK := a.IsScalar() || b.IsScalar() || sameDims(a.Dims, b.Dims)
	batchOK := a.Batch == b.Batch || a.Batch == 1 || b.Batch == 1
	if !valid || !dimsOK || !batchOK {
		_, err := Minibatch(clone(a), clone(b))
		return err
	}
	fa, fb := [2]int{a.Batch, va}, [2]int{b.Batch, vb}
	if err := p.build(fa[:], fb[:], true); err != nil {
		return err
	}
	p.batchA, p.batchB = a, b
	return nil
}

// Out returns the output shape (for a minibatch plan, the flat (Batch,
// Volume) view of the result).
func (p *Plan) Out() Shape {
	if p.out == nil {
		return p.outShape()
	}
	return p.out.Clone()
}

// OutLen returns the number of output elements: the length dst must have.
func (p *Plan) OutLen() int { return p.outLen }

// outShape recomputes the output shape of a plan built without storing it.
func (p *Plan) outShape() Shape {
	if p.batchA.Batch != 0 {
		out, _ := Minibatch(p.batchA, p.batchB)
		flat, _ := out.Flat()
		return flat
	}
	out, _ := Numpy(p.aShape, p.bShape)
	return out
}

// build resolves the NUMPY alignment of valid-looking shapes a and b into the
// inner block and the outer dimensions. With useB false, b only shapes the
// output: its strides neither block merging nor count as an input (for To).
// It does not keep a or b.
func (p *Plan) build(a, b Shape, useB bool) error {
	// Walk the output dimensions from the innermost out, computing each
	// operand's stride, dropping size-1 dimensions and merging a dimension
	// into the previous (inner) one when all strides continue it. Every
	// size of a or b is 1 or the output's, so checking the output's element
	// count for overflow checks theirs too.
	k := 0
	pd, pa, pb := 1, 1, 1
	aZero, bZero := false, false
	for i := 1; i <= max(len(a), len(b)); i++ {
		sa, sb := sizeAt(a, i), sizeAt(b, i)
		if sa < 0 || sb < 0 {
			return invalidShapes(a, b)
		}
		aZero, bZero = aZero || sa == 0, bZero || sb == 0
		so := sa
		if sa == 1 {
			so = sb
		} else if sb != 1 && sb != sa {
			_, err := Numpy(a.Clone(), b.Clone()) // clones keep a and b on the caller's stack
			return err
		}
		d := dim{size: so, d: pd}
		if sa != 1 {
			d.a = pa
		}
		if sb != 1 && useB {
			d.b = pb
		}
		if hi, lo := bits.Mul64(uint64(pd), uint64(max(so, 1))); hi != 0 || lo > math.MaxInt {
			_, err := Numpy(a.Clone(), b.Clone())
			return err
		}
		pd, pa, pb = pd*max(so, 1), pa*max(sa, 1), pb*max(sb, 1)
		if so == 0 {
			p.empty = true
		}
		if so == 1 {
			continue
		}
		merged := p.mergedDims(k)
		if last := len(merged) - 1; last >= 0 && d.d == merged[last].d*merged[last].size &&
			d.a == merged[last].a*merged[last].size && d.b == merged[last].b*merged[last].size {
			merged[last].size *= so
			continue
		}
		switch {
		case p.moreDims != nil:
			p.moreDims = append(p.moreDims, d)
		case k < len(p.dims):
			p.dims[k] = d
		default:
			p.moreDims = append(append([]dim(nil), p.dims[:]...), d)
		}
		k++
	}
	p.nDims = k
	p.outLen, p.aLen, p.bLen = pd, pa, pb
	if p.empty {
		p.outLen = 0
	}
	if aZero {
		p.aLen = 0
	}
	if bZero {
		p.bLen = 0
	}
	merged := p.mergedDims(k)

	p.m, p.n, p.inca, p.incb = 1, 1, 1, 1
	p.aWhole, p.bWhole = p.aLen == p.outLen, p.bLen == p.outLen
	for _, d := range merged { // an input is laid out as the output when it strides as dst does
		p.aWhole = p.aWhole && d.a == d.d
		p.bWhole = p.bWhole && d.b == d.d
	}
	if len(merged) >= 1 {
		p.n, p.inca, p.incb = merged[0].size, merged[0].a, merged[0].b
	}
	if len(merged) >= 2 {
		p.m, p.ldd, p.lda, p.ldb = merged[1].size, merged[1].d, merged[1].a, merged[1].b
	}
	p.tiny = p.m*p.n <= tinyBlock
	p.rowB = p.inca == 1 && p.incb == 1 && p.ldb == 0 && p.lda == p.n && p.ldd == p.n && p.m > 1
	p.rowA = p.inca == 1 && p.incb == 1 && p.lda == 0 && p.ldb == p.n && p.ldd == p.n && p.m > 1
	return nil
}

// sizeAt returns the size of s at position i from the right (1-based), or 1
// past its rank.
func sizeAt(s Shape, i int) int {
	if i > len(s) {
		return 1
	}
	return s[len(s)-i]
}

// invalidShapes returns the error for a or b having a negative size. Only
// this error path keeps (copies of) the shapes.
func invalidShapes(a, b Shape) error {
	if err := a.Clone().validate("a"); err != nil {
		return err
	}
	return b.Clone().validate("b")
}

// mergedDims returns the first k merged dimensions, innermost first.
func (p *Plan) mergedDims(k int) []dim {
	if p.moreDims != nil {
		return p.moreDims[:k]
	}
	return p.dims[:k]
}

// outerDims returns the dimensions above the inner block, innermost first.
func (p *Plan) outerDims() []dim {
	if p.nDims <= 2 {
		return nil
	}
	return p.mergedDims(p.nDims)[2:]
}
