package io.hopscope.analyzer.read.chunk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chunk's metadata event: every type's id, name and fields in the order events and constant pools
 * write them, read from the chunk itself (never assumed: a JDK that adds a field still reads). The
 * layout follows the JDK's {@code MetadataReader}: a string table, then a tree of elements whose
 * {@code metadata} child declares the types ({@code class}) with their {@code field}s and annotations.
 */
final class Metadata {

    static final long METADATA_TYPE_ID = 0;

    static final int UNKNOWN = 0;
    static final int BOOLEAN = 1;
    static final int BYTE = 2;
    static final int SHORT = 3;
    static final int CHAR = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int STRING = 9;
    static final int STRUCT = 10;

    /** A type: a primitive, a string, or a struct of fields; events are the structs whose super type is jdk.jfr.Event. */
    static final class Type {
        final long id;
        final String name;
        final String superType;
        final boolean simple;
        final List<Field> fields = new ArrayList<>();
        int kind;
        // Field index by name, made on first use.
        private Map<String, Integer> index;

        Type(long id, String name, String superType, boolean simple) {
            this.id = id;
            this.name = name;
            this.superType = superType;
            this.simple = simple;
        }

        boolean isEvent() {
            return "jdk.jfr.Event".equals(superType);
        }

        int fieldIndex(String fieldName) {
            if (index == null) {
                Map<String, Integer> m = new HashMap<>();
                for (int i = 0; i < fields.size(); i++) {
                    m.putIfAbsent(fields.get(i).name, i);
                }
                index = m;
            }
            Integer i = index.get(fieldName);
            return i == null ? -1 : i;
        }
    }

    /** A field: its type, whether it is a constant-pool reference, an array, and its timespan unit if any. */
    static final class Field {
        final String name;
        final long typeId;
        final boolean pool;
        final boolean array;
        String timespan;
        Type type;

        Field(String name, long typeId, boolean pool, boolean array) {
            this.name = name;
            this.typeId = typeId;
            this.pool = pool;
            this.array = array;
        }
    }

    final long metadataId;
    final Map<Long, Type> types = new HashMap<>();
    final Map<String, Type> events = new HashMap<>();
    // The type of constant-pool strings (java.lang.String), or null.
    Type stringType;

    private Metadata(long metadataId) {
        this.metadataId = metadataId;
    }

    /** The metadata id at {@code offset} (metadata events of one id are alike), without reading the rest. */
    static long idAt(ChunkInput in, int offset) {
        in.pos = offset;
        in.readInt(); // size
        long type = in.readLong();
        if (type != METADATA_TYPE_ID) {
            throw new ChunkFormatException("expected the metadata event at byte " + offset + ", found event type " + type);
        }
        in.readLong(); // start
        in.readLong(); // duration
        return in.readLong();
    }

    static Metadata read(ChunkInput in, int offset) {
        long id = idAt(in, offset);
        Metadata m = new Metadata(id);
        int n = in.readSize("the metadata's string table");
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            strings[i] = Strings.readUnpooled(in);
        }
        Element root = Element.read(in, strings, 0);
        Element metadata = root.child("metadata");
        if (metadata == null) {
            throw new ChunkFormatException("the metadata has no type declarations");
        }
        List<Element> classes = metadata.children("class");
        for (Element c : classes) {
            long typeId = parseLong(c.attribute("id"), "type id");
            Type t = new Type(typeId, c.attribute("name"), c.attribute("superType"), c.attribute("simpleType") != null);
            m.types.put(typeId, t);
        }
        for (Element c : classes) {
            Type t = m.types.get(parseLong(c.attribute("id"), "type id"));
            for (Element f : c.children("field")) {
                String dimension = f.attribute("dimension");
                Field field = new Field(f.attribute("name"), parseLong(f.attribute("class"), "field type"),
                        f.attribute("constantPool") != null, dimension != null && parseLong(dimension, "dimension") > 0);
                field.type = m.types.get(field.typeId);
                if (field.type == null) {
                    throw new ChunkFormatException("type '" + field.typeId + "' is not defined for field " + field.name);
                }
                for (Element a : f.children("annotation")) {
                    Type at = m.types.get(parseLong(a.attribute("class"), "annotation type"));
                    if (at != null && "jdk.jfr.Timespan".equals(at.name)) {
                        field.timespan = a.attribute("value");
                    }
                }
                t.fields.add(field);
            }
        }
        for (Type t : m.types.values()) {
            t.kind = kindOf(t);
            if (t.kind == STRING && m.stringType == null) {
                m.stringType = t;
            }
            if (t.isEvent()) {
                m.events.put(t.name, t);
            }
        }
        // As the JDK's ParserFactory: a field of a type that is neither a struct nor a known primitive is an error.
        for (Type t : m.types.values()) {
            for (Field f : t.fields) {
                if (f.type.kind == UNKNOWN) {
                    throw new ChunkFormatException("unknown primitive type " + f.type.name);
                }
                if (f.type.kind == STRUCT && f.type.simple && f.type.fields.isEmpty()) {
                    throw new ChunkFormatException("simple type " + f.type.name + " has no field");
                }
            }
        }
        return m;
    }

    private static int kindOf(Type t) {
        if (!t.fields.isEmpty()) {
            return STRUCT;
        }
        if (t.name == null) {
            return UNKNOWN;
        }
        return switch (t.name) {
            case "boolean" -> BOOLEAN;
            case "byte" -> BYTE;
            case "short" -> SHORT;
            case "char" -> CHAR;
            case "int" -> INT;
            case "long" -> LONG;
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            case "java.lang.String" -> STRING;
            default -> UNKNOWN;
        };
    }

    private static long parseLong(String s, String what) {
        if (s == null) {
            throw new ChunkFormatException("the metadata has a " + what + " missing");
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ChunkFormatException("the metadata has a " + what + " that is not a number: " + s);
        }
    }

    /** An element of the metadata tree: a name, attributes, children. */
    private record Element(String name, Map<String, String> attributes, List<Element> elements) {

        static Element read(ChunkInput in, String[] strings, int depth) {
            if (depth > 64) {
                throw new ChunkFormatException("the metadata nests deeper than 64 elements");
            }
            String name = string(in, strings);
            int attributeCount = in.readSize("the metadata's attribute count");
            Map<String, String> attributes = new HashMap<>();
            for (int i = 0; i < attributeCount; i++) {
                attributes.put(string(in, strings), string(in, strings));
            }
            int childCount = in.readSize("the metadata's element count");
            List<Element> children = new ArrayList<>(childCount);
            for (int i = 0; i < childCount; i++) {
                children.add(read(in, strings, depth + 1));
            }
            return new Element(name, attributes, children);
        }

        private static String string(ChunkInput in, String[] strings) {
            int i = in.readInt();
            if (i < 0 || i >= strings.length) {
                throw new ChunkFormatException("the metadata refers to string " + i + " of " + strings.length);
            }
            return strings[i];
        }

        String attribute(String key) {
            return attributes.get(key);
        }

        Element child(String childName) {
            for (Element e : elements) {
                if (childName.equals(e.name)) {
                    return e;
                }
            }
            return null;
        }

        List<Element> children(String childName) {
            List<Element> list = new ArrayList<>();
            for (Element e : elements) {
                if (childName.equals(e.name)) {
                    list.add(e);
                }
            }
            return list;
        }
    }
}
