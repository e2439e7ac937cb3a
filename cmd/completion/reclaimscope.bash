# bash completion for reclaimscope(1). Commands, options and policies come from the binary
# itself (--list-commands, --list-options CMD, --list-policies), so they follow its tables.
_reclaimscope()
{
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		words="$(reclaimscope --list-commands 2>/dev/null) --help --version"
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case "$prev" in
	--policy)
		COMPREPLY=($(compgen -W "$(reclaimscope --list-policies 2>/dev/null)" -- "$cur"))
		return ;;
	--metric)
		COMPREPLY=($(compgen -W "scanned reclaimed efficiency stall" -- "$cur"))
		return ;;
	--file-version)
		COMPREPLY=($(compgen -W "6 7" -- "$cur"))
		return ;;
	-o|--output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	=)
		# an optional value, attached: bash splits "--calls=a" into --calls, =, a
		if [ "${COMP_WORDS[COMP_CWORD-2]}" = --calls ]; then
			COMPREPLY=($(compgen -W "all" -- "$cur"))
			return
		fi ;;
	esac
	if [[ "$cur" == -* ]]; then
		words=$(reclaimscope --list-options "$cmd" 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _reclaimscope reclaimscope
