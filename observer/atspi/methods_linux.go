//go:build linux

package atspi

// The names of the accessibility bus: its services, paths and interfaces.
const (
	a11yBusName     = "org.a11y.Bus"
	a11yBusPath     = "/org/a11y/bus"
	registryName    = "org.a11y.atspi.Registry"
	registryPath    = "/org/a11y/atspi/registry"
	ifaceAccessible = "org.a11y.atspi.Accessible"
	ifaceAction     = "org.a11y.atspi.Action"
	ifaceApp        = "org.a11y.atspi.Application"
	ifaceComponent  = "org.a11y.atspi.Component"
	ifaceEditable   = "org.a11y.atspi.EditableText"
	ifaceSelection  = "org.a11y.atspi.Selection"
	ifaceText       = "org.a11y.atspi.Text"
	ifaceValue      = "org.a11y.atspi.Value"
	ifaceCache      = "org.a11y.atspi.Cache"
	ifaceRegistry   = "org.a11y.atspi.Registry"
	ifaceProps      = "org.freedesktop.DBus.Properties"
	dbusName        = "org.freedesktop.DBus"
	dbusPath        = "/org/freedesktop/DBus"
)

// The AT-SPI (and D-Bus) methods and properties the backend calls, each named once: a call
// names its method by one of these, never by a string of its own.

const (
	// Methods.
	accessibleGetAttributes     = ifaceAccessible + ".GetAttributes"
	accessibleGetChildAtIndex   = ifaceAccessible + ".GetChildAtIndex"
	accessibleGetChildren       = ifaceAccessible + ".GetChildren"
	accessibleGetIndexInParent  = ifaceAccessible + ".GetIndexInParent"
	accessibleGetInterfaces     = ifaceAccessible + ".GetInterfaces"
	accessibleGetRelationSet    = ifaceAccessible + ".GetRelationSet"
	accessibleGetRole           = ifaceAccessible + ".GetRole"
	accessibleGetState          = ifaceAccessible + ".GetState"
	actionDoAction              = ifaceAction + ".DoAction"
	actionGetName               = ifaceAction + ".GetName"
	appGetApplicationBusAddress = ifaceApp + ".GetApplicationBusAddress"
	cacheGetItems               = ifaceCache + ".GetItems"
	componentGetExtents         = ifaceComponent + ".GetExtents"
	componentGrabFocus          = ifaceComponent + ".GrabFocus"
	componentScrollTo           = ifaceComponent + ".ScrollTo"
	editableSetTextContents     = ifaceEditable + ".SetTextContents"
	propsGet                    = ifaceProps + ".Get"
	propsGetAll                 = ifaceProps + ".GetAll"
	propsSet                    = ifaceProps + ".Set"
	registryDeregisterEvent     = ifaceRegistry + ".DeregisterEvent"
	registryRegisterEvent       = ifaceRegistry + ".RegisterEvent"
	textGetText                 = ifaceText + ".GetText"

	// Properties, as errors and Properties.Get name them.
	accessibleParentProp  = ifaceAccessible + ".Parent"
	actionNActionsProp    = ifaceAction + ".NActions"
	valueCurrentValueProp = ifaceValue + ".CurrentValue"
)
