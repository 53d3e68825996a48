package elem

// The portable kernels. They are the reference: every other implementation
// must give exactly their bits. Their row loops (vvRow, vsRow, svRow in
// ops_generated.go) are the obvious scalar expressions from the op table.

// kind is the operand shape of a kernel call, as in asm.Kinds.
type kind uint8

const (
	kindVV kind = iota // a and b are rows of n values
	kindVS             // b is one value per row
	kindSV             // a is one value per row
)

// runGeneric computes the m x n block of kind k; see Apply2D. The slices
// hold every element the block reads or writes.
func runGeneric[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	for r := 0; r < m; r++ {
		d := dst[r*ldd:][:n]
		switch k {
		case kindVV:
			vvRow(op, d, a[r*lda:][:n], b[r*ldb:][:n])
		case kindVS:
			vsRow(op, d, a[r*lda:][:n], b[r*ldb])
		case kindSV:
			svRow(op, d, &a[r*lda], b[r*ldb:][:n])
		}
	}
}
