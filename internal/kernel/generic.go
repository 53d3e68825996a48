package kernel

// Float is the element type of the floating-point kernels: float32,
// float64, or a type defined on one of them.
type Float interface {
	~float32 | ~float64
}

// Integer is the element type of the integer kernels.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Number is every element type of the kernels.
type Number interface {
	Float | Integer
}

// Kind is the operand shape of a kernel call: which inputs supply a row of n
// values and which one value per row (see the constants in ops_generated.go).
type Kind uint8

// String returns the kind's letters, one per input: "vv", "vs", "sv", "v".
func (k Kind) String() string { return kindNames[k] }
