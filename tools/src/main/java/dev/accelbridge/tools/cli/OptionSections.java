package dev.accelbridge.tools.cli;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A command's option list in sections: its own options first, then each options group it mixes in under the group's
 * {@link OptionSection} heading, in the order the command declares them. picocli's argument groups would do the same
 * but make a group's object only when one of its options is given; the groups here are the plan's typed options, which a
 * command always holds.
 */
final class OptionSections implements CommandLine.IHelpSectionRenderer {
    @Override
    public String render(Help help) {
        CommandSpec spec = help.commandSpec();
        Help.Layout layout = help.createDefaultLayout();
        Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
        List<OptionSpec> own = new ArrayList<>(spec.options().stream().filter(o -> !o.hidden()).toList());
        StringBuilder sections = new StringBuilder();
        for (CommandSpec mixin : spec.mixins().values()) {
            OptionSection heading = mixin.userObject() == null ? null : mixin.userObject().getClass().getAnnotation(OptionSection.class);
            if (heading == null) {
                continue;
            }
            List<OptionSpec> group = mixin.options().stream().filter(o -> !o.hidden()).toList();
            own.removeAll(group);
            sections.append(String.format("%n%s:%n", heading.value()))
                    .append(help.optionListExcludingGroups(group, help.createDefaultLayout(), null, labels));
        }
        return help.optionListExcludingGroups(own, layout, null, labels) + sections;
    }
}
