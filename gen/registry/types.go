package registry

// Type is an element type of the kernels.
type Type struct {
	GoName string // "float32"
	Short  string // in kernel names: "F32"
	Bits   int    // 8, 16, 32 or 64
	Float  bool
	Signed bool // for integers
}

// Size is the size of one element in bytes.
func (t Type) Size() int { return t.Bits / 8 }

// The element types.
var (
	Float32 = Type{GoName: "float32", Short: "F32", Bits: 32, Float: true}
	Float64 = Type{GoName: "float64", Short: "F64", Bits: 64, Float: true}
	Int8    = Type{GoName: "int8", Short: "I8", Bits: 8, Signed: true}
	Int16   = Type{GoName: "int16", Short: "I16", Bits: 16, Signed: true}
	Int32   = Type{GoName: "int32", Short: "I32", Bits: 32, Signed: true}
	Int64   = Type{GoName: "int64", Short: "I64", Bits: 64, Signed: true}
	Uint8   = Type{GoName: "uint8", Short: "U8", Bits: 8}
	Uint16  = Type{GoName: "uint16", Short: "U16", Bits: 16}
	Uint32  = Type{GoName: "uint32", Short: "U32", Bits: 32}
	Uint64  = Type{GoName: "uint64", Short: "U64", Bits: 64}
)

// The type sets of the ops: Floats, Ints (the integer types, signed and
// unsigned) and Numbers (both); Types lists every element type.
var (
	Floats  = []Type{Float32, Float64}
	Ints    = []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64}
	Numbers = append(append([]Type(nil), Floats...), Ints...)
	Types   = Numbers
)

// Constraint is the Go constraint of the element types of a type set:
// "Float", "Integer" or "Number".
func Constraint(ts []Type) string {
	floats, ints := false, false
	for _, t := range ts {
		floats, ints = floats || t.Float, ints || !t.Float
	}
	switch {
	case floats && ints:
		return "Number"
	case ints:
		return "Integer"
	}
	return "Float"
}
