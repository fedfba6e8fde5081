package record_test

import (
	"fmt"

	"github.com/ictal/ictal/internal/record"
)

// An alert's annotation, as a recording holds it, read back.
func ExampleParseNote() {
	n, err := record.ParseNote("alert id=0b5c6f7e onset=2026-11-26T10:20:08.500Z detected=2026-11-26T10:20:11.500Z score=0.935 channels=T7,F7,C3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n.Kind, n.Get("id"), n.Get("score"), n.Get("channels"))
	s, _ := record.ParseNote("state artifact kind=muscle channels=T7,T8 reason=muscle on T7, T8")
	fmt.Printf("%s %s %q\n", s.Kind, s.Word, s.Reason)
	// Output:
	// alert 0b5c6f7e 0.935 T7,F7,C3
	// state artifact "muscle on T7, T8"
}
