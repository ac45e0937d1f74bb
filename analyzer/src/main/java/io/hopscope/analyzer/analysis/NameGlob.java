package io.hopscope.analyzer.analysis;

import java.util.regex.Pattern;

/**
 * {@code --name} matching: {@code *} any characters (including {@code /}, since request names are
 * paths), {@code ?} one character, everything else literal. A path-style glob would stop at {@code /}.
 */
public final class NameGlob {

    private final Pattern pattern;

    public NameGlob(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        this.pattern = Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    public boolean matches(String name) {
        return name != null && pattern.matcher(name).matches();
    }
}
