package arm64enc

// This file encodes UMAXV, the across-lanes maximum the reduction kernels
// use to ask whether any lane of a compare is set, which the Go assembler
// lacks; like the instructions of arm64_encode.go it is emitted as WORD
// with the GNU spelling.

import "fmt"

// EncodeUMaxV encodes umaxv s<d>, v<n>.4s: the scalar d gets the greatest
// of n's four 32-bit lanes, unsigned.
//
//	0 1 1 01110 10 11000 01010 10 Rn Rd
func EncodeUMaxV(d, n VReg) (uint32, error) {
	if err := checkVRegs(d, n); err != nil {
		return 0, err
	}
	return 0x6eb0a800 | uint32(n)<<5 | uint32(d), nil
}

// UMaxVGNU returns the GNU assembler spelling of the instruction that
// EncodeUMaxV encodes: "umaxv s10, v8.4s".
func UMaxVGNU(d, n VReg) string { return fmt.Sprintf("umaxv s%d, v%d.4s", d, n) }
