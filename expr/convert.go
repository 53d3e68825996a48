package expr

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// Convert is n converted to the element type To, element by element, as
// elem.Convert converts: Go's conversion, except that a float that does not
// fit an integer To is truncated toward zero, saturated at To's limits, and
// NaN gives 0 (round first with Round or RoundToEven for rounding to
// nearest). A plan runs a conversion block by block between the ops of
// both types, so that uint8 pixels converted to float32, normalised and
// converted back are one pass over memory (see the package example).
//
// The inputs of an expression may then be of several element types; each
// name has one, and a run binds each input with an Arg of its type (see
// Binding). Inputs of a defined type (as type celsius float32) may be of
// the plan's element type only, beside elem's predeclared ones.
func Convert[To, From elem.Number](n Node[From]) Node[To] {
	return Node[To]{&node[To]{kind: kindConvert, from: &convertFrom[To, From]{n: n.n}}}
}

// source is the argument of a conversion into T: a node of another element
// type, which the compiler reaches through it.
type source[T elem.Number] interface {
	// part collects the argument's expression into reg, as a part of the
	// plan of its own element type.
	part(reg *registry) (conversion[T], error)
	format(sb *strings.Builder)
}

// convertFrom is a conversion's argument of element type From.
type convertFrom[To, From elem.Number] struct{ n *node[From] }

func (c *convertFrom[To, From]) part(reg *registry) (conversion[To], error) {
	if c.n == nil {
		return nil, fmt.Errorf("%w: a conversion has an empty Node argument", ErrInput)
	}
	sub := newCompiler(&Plan[From]{tag: tagOf[From]()}, reg)
	if err := sub.collect(c.n); err != nil {
		return nil, err
	}
	cp := &convPart[To, From]{j: len(reg.parts), c: sub, root: c.n}
	reg.parts = append(reg.parts, cp)
	return cp, nil
}

func (c *convertFrom[To, From]) format(sb *strings.Builder) {
	fmt.Fprintf(sb, "%T(", To(0))
	c.n.format(sb)
	sb.WriteString(")")
}

// conversion is a compiled conversion into T: what a step of a plan of T
// runs for a Convert node.
type conversion[T elem.Number] interface {
	// source is where the converted value is in a block, in its part.
	source() operand
	// run computes the current block of m x n elements of the argument
	// in its part and converts it into d, ldd apart.
	run(b, t *scratch[T], g *geometry, m, n int, d []T, ldd int, stream bool)
}

// part is the argument of a conversion compiled as a plan of its element
// type (a sub-plan): its steps run on the blocks of the whole plan, over
// the same array slots, with the part's memory in a scratch of its own
// that the whole plan's scratch holds (scratch.subs, by the part's index
// in Plan.parts).
type part interface {
	tag() etype
	// emit emits the part's steps over the plan's array slots, laid out,
	// and adopt gives it the plan's coalesced axes and tile once the plan
	// has decided them.
	emit(arrays []slot)
	adopt(size, dstStride []int, tile int)
	// scalarVals returns the global index of each of the part's scalars
	// and the index of the first in its values.
	scalarVals() ([]int, int)
	newScratch(block int, subs []any, off []int) any
	bindArray(s any, k int, ptr unsafe.Pointer, n int)
	bindValue(s any, vi int, bits uint64)
	release(s any)
	resetTiles(t any)
	fillTiles(b, t any, n0, count int)
}

// convPart is a conversion from From into To and its part.
type convPart[To, From elem.Number] struct {
	j    int // the part's index in Plan.parts
	c    *compiler[From]
	root *node[From]
	src  operand
}

func (cp *convPart[To, From]) tag() etype { return cp.c.p.tag }

func (cp *convPart[To, From]) source() operand { return cp.src }

func (cp *convPart[To, From]) emit(arrays []slot) {
	p, c := cp.c.p, cp.c
	p.arrays = arrays
	if cp.root.kind <= kindConst {
		cp.src = c.leaf(cp.root)
		return
	}
	p.steps = make([]step[From], 0, len(c.ops))
	c.sub = true
	c.emit(cp.root)
	cp.src = c.ops[c.id[cp.root]].at
}

func (cp *convPart[To, From]) adopt(size, dstStride []int, tile int) {
	p := cp.c.p
	p.size, p.dstStride, p.tile = size, dstStride, tile
}

func (cp *convPart[To, From]) scalarVals() ([]int, int) { return cp.c.scalarGlobal, len(cp.c.p.consts) }

func (cp *convPart[To, From]) run(b, t *scratch[To], g *geometry, m, n int, d []To, ldd int, stream bool) {
	p := cp.c.p
	sb, st := b.subs[cp.j].(*scratch[From]), t.subs[cp.j].(*scratch[From])
	p.compute(nil, sb, st, nil, g, m, n)
	src, lds := p.arg(cp.src, sb, st, nil, g, n)
	mm, nn := 1, 1
	if cp.src.vout {
		mm = m
	}
	if cp.src.vin {
		nn = n
	}
	if isHalf[To]() || isHalf[From]() {
		// By value, as elem.Convert (a half's bits are no integer).
		for r := range mm {
			elem.Convert(d[r*ldd:][:nn], src[r*lds:][:nn])
		}
		return
	}
	kernel.Convert(mm, nn, d, ldd, src, lds, stream)
}

func (cp *convPart[To, From]) newScratch(block int, subs []any, off []int) any {
	s := newScratch(cp.c.p, block)
	s.subs, s.off = subs, off
	return s
}

func (cp *convPart[To, From]) bindArray(s any, k int, ptr unsafe.Pointer, n int) {
	s.(*scratch[From]).data[k] = unsafe.Slice((*From)(ptr), n)
}

func (cp *convPart[To, From]) bindValue(s any, vi int, bits uint64) {
	s.(*scratch[From]).vals[vi] = valueOf[From](bits)
}

func (cp *convPart[To, From]) release(s any) { s.(*scratch[From]).dropData() }

func (cp *convPart[To, From]) resetTiles(t any) { t.(*scratch[From]).resetTiles() }

func (cp *convPart[To, From]) fillTiles(b, t any, n0, count int) {
	cp.c.p.fillTiles(b.(*scratch[From]), t.(*scratch[From]), n0, count)
}

// registry is what the compilers of all the parts of one plan share: the
// array inputs and the names of every input, each with its element type.
type registry struct {
	arrays   []slot
	arrayIdx map[string]int
	scalars  []string
	// scalarTags are the scalars' element types, by index in scalars.
	scalarTags []etype
	scalarIdx  map[string]int
	typeName   map[string]string // each input's element type, by name
	parts      []part
	// plan is a zero of the plan's element type, the one defined type
	// (see tagOther) that its inputs may have.
	plan any
}

func newRegistry[T elem.Number]() *registry {
	return &registry{arrayIdx: map[string]int{}, scalarIdx: map[string]int{}, typeName: map[string]string{}, plan: T(0)}
}

// etype is an element type as a run tells the Args apart: elem's
// predeclared types, or tagOther for a defined one.
type etype uint8

const (
	tagOther etype = iota
	tagFloat32
	tagFloat64
	tagInt8
	tagInt16
	tagInt32
	tagInt64
	tagUint8
	tagUint16
	tagUint32
	tagUint64
	tagFloat16
	tagBFloat16
)

// tagNames are the names of the predeclared types' etypes.
var tagNames = [...]string{tagFloat32: "float32", tagFloat64: "float64", tagInt8: "int8", tagInt16: "int16", tagInt32: "int32",
	tagInt64: "int64", tagUint8: "uint8", tagUint16: "uint16", tagUint32: "uint32", tagUint64: "uint64",
	tagFloat16: "elem.Float16", tagBFloat16: "elem.BFloat16"}

// tagOf returns the etype of T.
func tagOf[T elem.Number]() etype {
	switch any(T(0)).(type) {
	case float32:
		return tagFloat32
	case float64:
		return tagFloat64
	case int8:
		return tagInt8
	case int16:
		return tagInt16
	case int32:
		return tagInt32
	case int64:
		return tagInt64
	case uint8:
		return tagUint8
	case uint16:
		return tagUint16
	case uint32:
		return tagUint32
	case uint64:
		return tagUint64
	case elem.Float16:
		return tagFloat16
	case elem.BFloat16:
		return tagBFloat16
	}
	return tagOther
}

// isHalf reports whether T is elem.Float16 or elem.BFloat16: storage,
// converted by value (elem.Convert's rounding), with no arithmetic.
func isHalf[T elem.Number]() bool {
	t := tagOf[T]()
	return t == tagFloat16 || t == tagBFloat16
}

// argView is an Arg as a run binds it, whatever its element type.
type argView struct {
	name   string
	tag    etype
	scalar bool
	ptr    unsafe.Pointer // the array's first element
	n      int            // and its length
	bits   uint64         // the scalar's value (see valueBits)
}

// viewOf sets v to a's view, tagged with tag, and reports true.
func viewOf[T elem.Number](a *Arg[T], tag etype, v *argView) bool {
	v.name, v.tag, v.scalar = a.name, tag, a.scalar
	if a.scalar {
		v.bits = valueBits(a.val)
	} else {
		v.ptr, v.n = unsafe.Pointer(unsafe.SliceData(a.data)), len(a.data)
	}
	return true
}

// view returns b's view, or false for a nil Binding: by type assertions,
// where a method of Binding would make every caller's Args escape to the
// heap. The plan's type (which may be a defined one) comes first, alone:
// most args are of it, and a type switch in generic code costs several
// times one assertion (A1000 of BenchmarkExpr: 430 ns against 230).
func (p *Plan[T]) view(b Binding, v *argView) bool {
	if a, ok := b.(Arg[T]); ok {
		return viewOf(&a, p.tag, v)
	}
	return predeclaredView(b, v)
}

// predeclaredView returns the view of b, an Arg of one of elem's
// predeclared element types, or false.
func predeclaredView(b Binding, v *argView) bool {
	switch a := b.(type) {
	case Arg[float32]:
		return viewOf(&a, tagFloat32, v)
	case Arg[float64]:
		return viewOf(&a, tagFloat64, v)
	case Arg[int8]:
		return viewOf(&a, tagInt8, v)
	case Arg[int16]:
		return viewOf(&a, tagInt16, v)
	case Arg[int32]:
		return viewOf(&a, tagInt32, v)
	case Arg[int64]:
		return viewOf(&a, tagInt64, v)
	case Arg[uint8]:
		return viewOf(&a, tagUint8, v)
	case Arg[uint16]:
		return viewOf(&a, tagUint16, v)
	case Arg[uint32]:
		return viewOf(&a, tagUint32, v)
	case Arg[uint64]:
		return viewOf(&a, tagUint64, v)
	case Arg[elem.Float16]:
		return viewOf(&a, tagFloat16, v)
	case Arg[elem.BFloat16]:
		return viewOf(&a, tagBFloat16, v)
	}
	return false
}

// valueBits returns v's bytes in a uint64, which valueOf reads back.
func valueBits[T elem.Number](v T) uint64 {
	var u uint64
	*(*T)(unsafe.Pointer(&u)) = v
	return u
}

// valueOf is the T whose bytes valueBits put in u.
func valueOf[T elem.Number](u uint64) T { return *(*T)(unsafe.Pointer(&u)) }
