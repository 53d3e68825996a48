package floatsgonum

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// exportedAPI returns the exported declarations of the package at import
// path pkg, read from its source: each name with its kind and, for a
// function, its parameter and result types (names of parameters left
// out).
func exportedAPI(t *testing.T, pkg string) map[string]string {
	t.Helper()
	p, err := build.Import(pkg, ".", 0)
	require.NoError(t, err)
	api := map[string]string{}
	for _, name := range p.GoFiles {
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			addExported(api, d)
		}
	}
	return api
}

// addExported adds d's exported names to api.
func addExported(api map[string]string, d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.IsExported() {
			api[d.Name.Name] = "func(" + fieldTypes(d.Type.Params) + ") (" + fieldTypes(d.Type.Results) + ")"
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					api[s.Name.Name] = "type " + types.ExprString(s.Type)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						api[n.Name] = d.Tok.String() + " " + types.ExprString(s.Type)
					}
				}
			}
		}
	}
}

// fieldTypes lists the types of a parameter or result list, one per
// parameter.
func fieldTypes(l *ast.FieldList) string {
	if l == nil {
		return ""
	}
	var ts []string
	for _, f := range l.List {
		for range max(1, len(f.Names)) {
			ts = append(ts, types.ExprString(f.Type))
		}
	}
	return strings.Join(ts, ", ")
}

func TestAPIMatchesGonum(t *testing.T) {
	gonum := exportedAPI(t, "gonum.org/v1/gonum/floats")
	ours := exportedAPI(t, "github.com/simdkit/elem/floats")
	require.Len(t, gonum, 42, "gonum v0.17.0's floats exports 42 functions: %v", slices.Sorted(maps.Keys(gonum)))
	require.Equal(t, gonum, ours)
}
