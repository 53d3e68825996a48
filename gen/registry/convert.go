package registry

// Convert is the conversion between element types: dst[i] = D(src[i]), the
// source type S and the destination type D any two different element
// types. It is a family of its own shape: two element types instead of one,
// and no op value.
var Convert = &Family{Name: "convert", Inputs: []Operand{{"src", "S"}}, Out: "D", Kinds: kinds("v"), Stream: true}

// Conversion is one pair of element types.
type Conversion struct{ From, To Type }

// Conversions lists every pair of different element types.
func Conversions() []Conversion {
	var cs []Conversion
	for _, from := range Types {
		for _, to := range Types {
			if from != to {
				cs = append(cs, Conversion{from, to})
			}
		}
	}
	return cs
}

// Key names a conversion in the back ends' tables: "int32>float32".
func (c Conversion) Key() string { return c.From.GoName + ">" + c.To.GoName }

// KernelName is the name of the conversion's kernel for isa:
// "convertI32F32AVX2".
func (c Conversion) KernelName(isa *ISA) string {
	return "convert" + c.From.Short + c.To.Short + isa.Name
}

// Signature is the Go signature of the conversion's kernel stubs.
func (c Conversion) Signature() string {
	return "func(m, n int, dst *" + c.To.GoName + ", ldd int, src *" + c.From.GoName + ", ldsrc int)"
}
