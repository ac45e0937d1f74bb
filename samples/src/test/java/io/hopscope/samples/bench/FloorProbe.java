package io.hopscope.samples.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The program {@link FloorAgentsTest} starts under each floor agent: it says it reached main, whether class-data
 * sharing is on in its JVM, and then whether the boot loader alone finds the bridge's first class.
 */
public final class FloorProbe {

    static final String MAIN = "floor-probe: main";

    private FloorProbe() {
    }

    public static void main(String[] args) {
        System.out.println(MAIN);
        System.out.println("floor-probe: UseSharedSpaces " + ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("UseSharedSpaces").getValue());
        String bridge = "io.hopscope.samples.bench.agents.bridge.BootBridge";
        try {
            // The boot loader alone: it finds the class only on the appended jar (the class path also holds it).
            Class<?> c = Class.forName(bridge, false, null);
            System.out.println("floor-probe: boot loader finds the bridge: " + (c.getClassLoader() == null));
        } catch (ClassNotFoundException e) {
            System.out.println("floor-probe: boot loader finds the bridge: false");
        }
    }
}
