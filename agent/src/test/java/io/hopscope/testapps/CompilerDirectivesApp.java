package io.hopscope.testapps;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * Prints how many MBean servers exist when {@code main} starts (the agent must not have created
 * the platform one), then this JVM's compiler directives, as {@code jcmd PID Compiler.directives_print}
 * would.
 */
public final class CompilerDirectivesApp {

    private CompilerDirectivesApp() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("mbean servers at main: " + MBeanServerFactory.findMBeanServer(null).size());
        Object directives = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint", null, null);
        System.out.println(directives);
    }
}
