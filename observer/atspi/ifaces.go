package atspi

// ifaceSet is the set of AT-SPI interfaces an object implements (GetInterfaces).
type ifaceSet uint32

// The AT-SPI interfaces.
const (
	ifAccessible ifaceSet = 1 << iota
	ifAction
	ifApplication
	ifCollection
	ifComponent
	ifDocument
	ifEditableText
	ifHyperlink
	ifHypertext
	ifImage
	ifSelection
	ifTable
	ifTableCell
	ifText
	ifValue
)

var ifaceBits = map[string]ifaceSet{
	"org.a11y.atspi.Accessible":   ifAccessible,
	"org.a11y.atspi.Action":       ifAction,
	"org.a11y.atspi.Application":  ifApplication,
	"org.a11y.atspi.Collection":   ifCollection,
	"org.a11y.atspi.Component":    ifComponent,
	"org.a11y.atspi.Document":     ifDocument,
	"org.a11y.atspi.EditableText": ifEditableText,
	"org.a11y.atspi.Hyperlink":    ifHyperlink,
	"org.a11y.atspi.Hypertext":    ifHypertext,
	"org.a11y.atspi.Image":        ifImage,
	"org.a11y.atspi.Selection":    ifSelection,
	"org.a11y.atspi.Table":        ifTable,
	"org.a11y.atspi.TableCell":    ifTableCell,
	"org.a11y.atspi.Text":         ifText,
	"org.a11y.atspi.Value":        ifValue,
}

// parseIfaces turns GetInterfaces' answer into a set; unknown interfaces are ignored.
func parseIfaces(names []string) ifaceSet {
	var s ifaceSet
	for _, n := range names {
		s |= ifaceBits[n]
	}
	return s
}

func (s ifaceSet) has(i ifaceSet) bool { return s&i != 0 }
